import Foundation
import Glibc

/// A file of a bundle, read by descriptor: the host (root, usually) reads only regular files
/// of a bundle — never through a symbolic link, never blocking on a FIFO or a device, never
/// more than a limit. A bundle comes from its author, who may have put anything in it.
enum BundleFile {
    /// The most a bundle's property list may hold.
    static let propertyListLimit = 1 << 20

    /// The contents of the regular file at `absolutePath` (named `file` in errors), at most
    /// `limit` bytes. `remedy` ends the message when the file is missing.
    static func read(_ absolutePath: String, file: String, limit: Int = propertyListLimit, remedy: String) throws(BundleError) -> Data {
        let fd = open(absolutePath, RegularFile.openFlags)
        guard fd >= 0 else {
            switch errno {
            case ELOOP: throw BundleError(file: file, message: "is a symbolic link; a bundle's property lists must be files of its own")
            case ENOENT: throw BundleError(file: file, message: "is missing; \(remedy)")
            default:
                throw BundleError(file: file, message: "cannot be read (\(String(cString: strerror(errno)))); check its permissions")
            }
        }
        defer { close(fd) }
        do {
            return try RegularFile.contents(of: fd, limit: limit)
        } catch {
            switch error {
            case .notRegular(let mode):
                throw BundleError(file: file, message: "is \(RegularFile.kind(of: mode)); it must be a property list file. \(remedy)")
            case .tooLarge(let size):
                throw BundleError(file: file, message: "is \(size) bytes; a bundle's property list holds at most \(limit >> 10) KiB")
            case .unreadable(let code):
                throw BundleError(file: file, message: "cannot be read (\(String(cString: strerror(code)))); check its permissions")
            }
        }
    }
}

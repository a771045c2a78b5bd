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
        let fd = open(absolutePath, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            switch errno {
            case ELOOP: throw BundleError(file: file, message: "is a symbolic link; a bundle's property lists must be files of its own")
            case ENOENT: throw BundleError(file: file, message: "is missing; \(remedy)")
            default:
                throw BundleError(file: file, message: "cannot be read (\(String(cString: strerror(errno)))); check its permissions")
            }
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw BundleError(file: file, message: "cannot be read (\(String(cString: strerror(errno)))); check its permissions")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw BundleError(file: file, message: "is \(kind(of: info.st_mode)); it must be a property list file. \(remedy)")
        }
        guard info.st_size <= limit else {
            throw BundleError(file: file, message: "is \(info.st_size) bytes; a bundle's property list holds at most \(limit >> 10) KiB")
        }
        var data = Data(count: Int(info.st_size))
        var offset = 0
        while offset < data.count {
            let n = data.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else {
                throw BundleError(file: file, message: "cannot be read (\(String(cString: strerror(errno)))); check its permissions")
            }
            if n == 0 { break }
            offset += n
        }
        return data.prefix(offset)
    }

    /// What a file of `mode` is, for an error: "a directory", "a FIFO", …
    static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "a regular file"
        }
    }
}

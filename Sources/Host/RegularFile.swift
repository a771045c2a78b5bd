import Foundation
import Glibc

/// A regular file read by descriptor, as the host reads what someone else wrote (a bundle, an
/// app group's container, a seed): opened without following a link and without waiting on a
/// FIFO, then checked to be a regular file of at most a limit before a byte is read.
enum RegularFile {
    /// Why a file was not read.
    enum Refusal: Error {
        /// It is not a regular file: `mode` says what it is.
        case notRegular(mode_t)
        /// It holds `size` bytes, over the limit.
        case tooLarge(Int64)
        /// Reading it failed with `errno`.
        case unreadable(Int32)
    }

    /// Flags that open a file to read it and nothing else.
    static let openFlags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY

    /// The contents of the file open as `fd`, at most `limit` bytes.
    static func contents(of fd: Int32, limit: Int) throws(Refusal) -> Data {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notRegular(info.st_mode) }
        guard info.st_size <= limit else { throw .tooLarge(Int64(info.st_size)) }
        var data = Data(count: Int(info.st_size))
        var total = 0
        let failure = data.withUnsafeMutableBytes { bytes -> Int32? in
            while total < bytes.count {
                let n = Glibc.read(fd, bytes.baseAddress! + total, bytes.count - total)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { return errno }
                if n == 0 { break }
                total += n
            }
            return nil
        }
        if let failure { throw .unreadable(failure) }
        return data.prefix(total)
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

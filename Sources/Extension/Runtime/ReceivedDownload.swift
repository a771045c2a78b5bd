#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A downloaded body the host passed as a descriptor, made into a file in the container by the
/// extension itself (as its own user): the host never writes into a directory the extension
/// can change.
enum ReceivedDownload {
    /// The directory of a session's finished downloads in `container`: `tmp` for an inline task
    /// (session ""), nsurlsessiond's download directory for a background session.
    static func directory(session: String, container: String) -> String {
        session.isEmpty ? container + "/tmp" : container + "/Library/Caches/com.apple.nsurlsessiond/Downloads"
    }

    /// Copies what `descriptor` reads into a new file `name` of `directory` (made if missing)
    /// and returns its path; closes `descriptor` in every case.
    ///
    /// On a cold start this is on the way to the delegate call, so it does no more than it must:
    /// the directories are made only when the file cannot be created for their absence.
    static func materialise(_ descriptor: Int32, name: String, in directory: String) -> Result<String, DownloadFileError> {
        defer { _ = close(descriptor) }
        guard !name.isEmpty, !name.utf8.contains(UInt8(ascii: "/")), name != ".", name != ".." else {
            return .failure(DownloadFileError(path: name, operation: "take the file name", code: EINVAL))
        }
        let path = directory + "/" + name
        _ = unlink(path)
        var file = create(path)
        if file < 0 && errno == ENOENT {
            if let failure = makeDirectories(directory) { return .failure(failure) }
            file = create(path)
        }
        guard file >= 0 else { return .failure(DownloadFileError(path: path, operation: "create", code: errno)) }
        defer { _ = close(file) }
        _ = lseek(descriptor, 0, SEEK_SET)
        return copy(from: descriptor, to: file, path: path)
    }

    private static func create(_ path: String) -> Int32 {
        open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    }

    /// Makes `directory` and its missing parents (mode 0700); the failure, if any.
    private static func makeDirectories(_ directory: String) -> DownloadFileError? {
        var made = ""
        for component in directory.split(separator: "/") {
            made += "/" + component
            if mkdir(made, 0o700) != 0 && errno != EEXIST {
                return DownloadFileError(path: made, operation: "create", code: errno)
            }
        }
        return nil
    }

    /// Copies through a buffer left uninitialised (a zero-filled one costs its pages on a cold start).
    private static func copy(from source: Int32, to file: Int32, path: String) -> Result<String, DownloadFileError> {
        let size = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(source, buffer, size)
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return .failure(DownloadFileError(path: path, operation: "read the body for", code: errno)) }
            if count == 0 { return .success(path) }
            var offset = 0
            while offset < count {
                let written = write(file, buffer + offset, count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else {
                    let code = errno
                    _ = unlink(path)
                    return .failure(DownloadFileError(path: path, operation: "write", code: code))
                }
                offset += written
            }
        }
    }
}

/// A downloaded file the SDK could not make.
struct DownloadFileError: Error, CustomStringConvertible {
    let path: String
    let operation: String
    let code: Int32

    var description: String { "could not \(operation) \(path): \(Errno(code))" }
}

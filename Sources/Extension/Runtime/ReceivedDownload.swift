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
    static func materialise(_ descriptor: Int32, name: String, in directory: String) -> Result<String, DownloadFileError> {
        defer { _ = close(descriptor) }
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            return .failure(DownloadFileError(path: name, operation: "take the file name", code: EINVAL))
        }
        var made = ""
        for component in directory.split(separator: "/") {
            made += "/" + component
            if mkdir(made, 0o700) != 0 && errno != EEXIST {
                return .failure(DownloadFileError(path: made, operation: "create", code: errno))
            }
        }
        let path = directory + "/" + name
        _ = unlink(path)
        let file = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { return .failure(DownloadFileError(path: path, operation: "create", code: errno)) }
        defer { _ = close(file) }
        _ = lseek(descriptor, 0, SEEK_SET)
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return .failure(DownloadFileError(path: path, operation: "read the body for", code: errno)) }
            if count == 0 { return .success(path) }
            if case .failure(let error) = Syscalls.writeFully(file, Array(buffer[0..<count])) {
                _ = unlink(path)
                return .failure(DownloadFileError(path: path, operation: "write", code: error.code))
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

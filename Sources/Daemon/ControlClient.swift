import Foundation
import Glibc

/// Sends one request to a daemon's control socket and reads its answer (blocking, with a
/// deadline): what `sandglass ctl` and tests use.
///
/// ```swift
/// let status = try ControlClient(path: ControlSocket.defaultPath).send(ControlRequest(command: "status"))
/// ```
public struct ControlClient: Sendable {
    /// The socket's path.
    public let path: String
    /// How long to wait for the answer.
    public var timeout: Duration = .seconds(60)

    public init(path: String) {
        self.path = path
    }

    /// Sends `request` and returns the daemon's response.
    public func send(_ request: ControlRequest) throws(ControlError) -> ControlResponse {
        let line: Data
        do {
            line = try JSONEncoder().encode(request) + Data("\n".utf8)
        } catch {
            throw ControlError(description: "cannot encode the request: \(error)")
        }
        let answer = try exchange(line)
        do {
            return try JSONDecoder().decode(ControlResponse.self, from: answer)
        } catch {
            throw ControlError(
                description:
                    "the daemon on \(path) answered something that is not a response: \(String(decoding: answer.prefix(200), as: UTF8.self))"
            )
        }
    }

    /// Whether something accepts connections on the Unix socket at `path`.
    public static func acceptsConnections(_ path: String) -> Bool {
        guard let fd = try? connected(path) else { return false }
        close(fd)
        return true
    }

    /// A socket connected to `path`.
    private static func connected(_ path: String) throws(ControlError) -> Int32 {
        guard path.utf8.count <= ControlSocket.maximumPathLength else {
            throw ControlError(description: "the control socket path \(path) is longer than \(ControlSocket.maximumPathLength) bytes")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ControlError(description: "socket(AF_UNIX) failed: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard status == 0 else {
            let code = errno
            close(fd)
            if code == ENOENT || code == ECONNREFUSED {
                throw ControlError(
                    description: "no sandglass daemon is listening on \(path) (start one with `sandglass serve`, or pass --control PATH)")
            }
            throw ControlError(description: "cannot connect to \(path): \(String(cString: strerror(code)))")
        }
        return fd
    }

    /// Writes `line` and reads until the daemon closes the connection.
    private func exchange(_ line: Data) throws(ControlError) -> Data {
        let fd = try Self.connected(path)
        defer { close(fd) }
        let seconds = timeout.components.seconds
        var limit = timeval(tv_sec: Int(seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let written = line.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
        guard written else { throw ControlError(description: "cannot send the request to \(path): \(String(cString: strerror(errno)))") }
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    throw ControlError(description: "the daemon on \(path) did not answer within \(seconds) s")
                }
                throw ControlError(description: "reading the answer from \(path) failed: \(String(cString: strerror(errno)))")
            }
            answer.append(contentsOf: buffer[0..<n])
        }
        guard !answer.isEmpty else { throw ControlError(description: "the daemon on \(path) closed the connection without an answer") }
        return answer
    }
}

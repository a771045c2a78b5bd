import Foundation
import Glibc
import SandglassHost

/// Sends one request to a daemon's control socket and reads its answer (blocking, with a
/// deadline): what `sandglass ctl` and tests use.
///
/// ```swift
/// let status = try ControlClient(path: ControlSocket.defaultPath).send(ControlRequest(command: "status"))
/// ```
public struct ControlClient: Sendable {
    /// The socket's path.
    public let path: String
    /// How long to wait for the whole answer.
    public var timeout: Duration = .seconds(60)
    /// The users whose daemon it talks to: root and its own. Whatever listens on the path is
    /// asked who it is (`SO_PEERCRED`); another user's socket — one squatting a guessable path
    /// in /tmp — is refused before anything is sent.
    public var trustedUsers: Set<uid_t> = [0, geteuid()]
    /// Whether it also talks to the owner of the directory the socket is in, who chose to put
    /// a daemon's socket there (a daemon run as `nobody` in a directory of nobody's).
    public var trustsDirectoryOwner = true
    /// The longest answer it reads.
    public static let maximumAnswer = 16 << 20

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
                    "the daemon on \(path) answered something that is not a response: \(TraceRenderer.printable(String(decoding: answer.prefix(200), as: UTF8.self)))"
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

    /// Writes `line` and reads until the daemon closes the connection, within ``timeout`` in
    /// all and at most ``maximumAnswer`` bytes.
    private func exchange(_ line: Data) throws(ControlError) -> Data {
        let fd = try Self.connected(path)
        defer { close(fd) }
        var peer = ControlPeer.Credentials()
        var size = socklen_t(MemoryLayout<ControlPeer.Credentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &size) == 0 else {
            throw ControlError(description: "cannot tell who listens on \(path): \(String(cString: strerror(errno)))")
        }
        var directory = stat()
        let owner =
            stat((path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent, &directory) == 0
            ? directory.st_uid : nil
        guard trustedUsers.contains(peer.uid) || (trustsDirectoryOwner && owner == peer.uid) else {
            throw ControlError(
                description:
                    "\(path) is served by uid \(peer.uid), neither root nor you nor the owner of its directory: another user's socket; nothing was sent. Pass --control with a path in a directory only you can write (such as $XDG_RUNTIME_DIR)"
            )
        }
        let seconds = timeout.components.seconds
        let deadline = ContinuousClock.now + timeout
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
            // One deadline for the whole answer: a trickle of bytes does not extend it.
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw ControlError(description: "the daemon on \(path) did not answer within \(seconds) s") }
            let (whole, attoseconds) = left.components
            var limit = timeval(tv_sec: Int(whole), tv_usec: max(1, Int(attoseconds / 1_000_000_000_000)))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
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
            guard answer.count <= Self.maximumAnswer else {
                throw ControlError(
                    description: "the daemon on \(path) answered more than \(Self.maximumAnswer >> 20) MiB; not a control answer")
            }
        }
        guard !answer.isEmpty else { throw ControlError(description: "the daemon on \(path) closed the connection without an answer") }
        return answer
    }
}

import Foundation
import Glibc
import Synchronization

/// A plain HTTP/1.0 server on 127.0.0.1 that is not the host's `FixtureServer` — what
/// `python3 -m http.server` would be, answering every GET after `delay` with `bytes` bytes and
/// closing the connection: blocking sockets, a thread per connection, nothing of NIO (so that
/// nothing of it lives in, or paces, the host it serves). `stop()` closes it.
final class SlowHTTPServer: Sendable {
    let port: UInt16
    private let listener: Int32
    private let served = Atomic<Int>(0)

    /// Requests answered so far.
    var requests: Int { served.load(ordering: .relaxed) }

    /// `http://127.0.0.1:PORT`.
    var url: String { "http://127.0.0.1:\(port)" }

    init(delay: Duration, bytes: Int = 65536) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 64) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard ready else {
            let error = errno
            Glibc.close(listener)
            throw POSIXError(.init(rawValue: error) ?? .EIO)
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in acceptLoop(delay: delay, bytes: bytes) }
    }

    private func acceptLoop(delay: Duration, bytes: Int) {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return // the listener was shut down
            }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            Thread.detachNewThread { [self] in
                Self.answer(connection, after: delay, bytes: bytes)
                served.add(1, ordering: .relaxed)
            }
        }
    }

    /// Reads the request head, waits `delay` (the server's slowness, which is what is tested),
    /// answers and closes.
    private static func answer(_ connection: Int32, after delay: Duration, bytes: Int) {
        defer { Glibc.close(connection) }
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !head.ends(with: Array("\r\n\r\n".utf8)) {
            let n = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            head += buffer[0..<n]
        }
        let (seconds, attoseconds) = delay.components
        var pause = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&pause, &remaining) != 0 && errno == EINTR { pause = remaining }
        let response =
            Array("HTTP/1.0 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(bytes)\r\n\r\n".utf8)
            + [UInt8](repeating: UInt8(ascii: "x"), count: bytes)
        var sent = 0
        while sent < response.count {
            let n = response[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            sent += n
        }
    }

    /// Stops accepting (connections being answered finish on their own).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}

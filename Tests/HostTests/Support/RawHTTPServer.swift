import Foundation
import Glibc

/// A server on 127.0.0.1 that answers each connection with the same bytes, as given — what an
/// HTTP library's encoder would not write (a transfer coding other than chunked). Closed by
/// ``close()``.
final class RawHTTPServer: @unchecked Sendable {
    let port: UInt16
    private let fd: Int32
    private let done = DispatchSemaphore(value: 0)

    /// Listening on 127.0.0.1, or on every address (`anywhere`).
    init(response: [UInt8], anywhere: Bool = false) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = anywhere ? 0 : UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard fd >= 0, bound == 0, named == 0, listen(fd, 8) == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
        port = UInt16(bigEndian: address.sin_port)
        self.fd = fd
        let listener = fd
        Thread { [done] in
            defer { done.signal() }
            while true {
                let peer = accept(listener, nil, nil)
                guard peer >= 0 else { return }
                // The request's head, then the answer, then the connection closed.
                var request: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while !request.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)) {
                    let n = recv(peer, &buffer, buffer.count, 0)
                    if n <= 0 { break }
                    request += buffer[0..<n]
                }
                _ = response.withUnsafeBytes { send(peer, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                Glibc.close(peer)
            }
        }.start()
    }

    /// Stops listening and waits for its thread.
    func close() {
        shutdown(fd, Int32(SHUT_RDWR))
        Glibc.close(fd)
        _ = done.wait(timeout: .now() + 10)
    }
}

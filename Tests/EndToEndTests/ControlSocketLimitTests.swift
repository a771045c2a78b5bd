import Foundation
import Glibc
import SandglassHost
import Testing

/// The daemon's control socket against clients that hold connections open or claim kills the
/// host never made.
@Suite("Control socket limits")
struct ControlSocketLimitTests {
    @Test("idle connections are capped and closed; ctl kill refuses the host's own reasons")
    func limits() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sgl-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ctl.sock").path
        let daemon = try Subprocess(
            CommandLineTests.sandglass,
            [
                "serve", try Examples.app("Leaderboard.app"), "--control", socket,
                "--data-directory", dir.appendingPathComponent("data").path, "--budget", "idle=120s", "--metrics", "127.0.0.1:0"
            ])
        defer { daemon.stop() }
        let metricsLine = try await daemon.waitForLine { $0.hasPrefix("metrics on http://127.0.0.1:") }
        _ = try await daemon.waitForLine { $0.hasPrefix("serving ") }
        let metricsPort = UInt16(metricsLine.split(separator: ":").last?.split(separator: "/").first ?? "") ?? 0
        // The metrics port's connections too: any local user may open them, and 64 that say
        // nothing held every scrape off for good.
        let scrapers = try (0..<64).map { _ in try Self.connect(port: metricsPort) }
        defer { scrapers.forEach { close($0) } }
        // While they are all open, a scrape is answered: the oldest silent one gives way.
        let scrape = try Self.connect(port: metricsPort)
        defer { close(scrape) }
        let request = Array("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        #expect(send(scrape, request, request.count, Int32(MSG_NOSIGNAL)) == request.count)
        var answer: [UInt8] = []
        try await eventually(timeout: 20, "the scrape is answered") {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = recv(scrape, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if n > 0 { answer += buffer[0..<n] }
            return answer.count >= 12 || n == 0
        }
        #expect(
            String(decoding: answer.prefix(12), as: UTF8.self) == "HTTP/1.1 200", "\(String(decoding: answer.prefix(200), as: UTF8.self))")

        // 200 clients connect and say nothing: past 64 they are closed at once, the rest when
        // their request does not come; the daemon's descriptors do not grow with them.
        let clients = try (0..<200).map { _ in try Self.connect(socket) }
        defer { clients.forEach { close($0) } }
        try await eventually(timeout: 20, "the connections over the cap are closed") {
            clients.filter(Self.isClosedByPeer).count >= 200 - 64
        }
        try await eventually(timeout: 40, "the idle connections are closed") {
            clients.allSatisfy(Self.isClosedByPeer)
        }
        try await eventually(timeout: 40, "the idle metrics connections are closed") {
            scrapers.allSatisfy(Self.isClosedByPeer)
        }
        let status = try await CommandLineTests.run(["ctl", "status", "--control", socket])
        #expect(status.status == 0, "\(status.error)")

        let bundle = "com.example.leaderboard.widget"
        for reason in ["hostShutdown", "protocolViolation", "resource", "sessionConflict", "cpu"] {
            let refused = try await CommandLineTests.run(["ctl", "kill", bundle, "--reason", reason, "--control", socket])
            #expect(refused.status == 1, "\(reason): \(refused.output)")
            #expect(
                (refused.output + refused.error).contains("chaos, memory, timeBudget, idle"),
                "\(reason): \(refused.output) \(refused.error)")
        }
        daemon.signal(SIGTERM)
        #expect(try await daemon.waitForExit() == 0)
    }

    static func connect(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = unixSocketAddress(path)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, rc == 0 else { throw Subprocess.Failure("cannot connect to \(path): errno \(errno)") }
        return fd
    }

    static func connect(port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, rc == 0 else { throw Subprocess.Failure("cannot connect to 127.0.0.1:\(port): errno \(errno)") }
        return fd
    }

    /// Whether the daemon closed `fd`'s connection (a read without waiting sees end of file).
    static func isClosedByPeer(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_DONTWAIT))
        return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }
}

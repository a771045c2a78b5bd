import Foundation
import Glibc
import SandglassHost
import Testing

@testable import SandglassDaemon

/// Whom the control socket serves, by the kernel's word on the peer: root and the daemon's own
/// user, never a child of the daemon (its extensions), never a peer that is gone.
@Suite("Control peers")
struct ControlPeerTests {
    @Test("a child of the daemon's process is refused as one of its extensions; its parent is served; a gone pid, another user are refused")
    func rules() throws {
        let child = try ChildProcess("/bin/sleep", ["30"], environment: [:])
        defer {
            child.signal()
            child.wait()
        }
        let asChild = ControlPeer(pid: child.pid, uid: geteuid()).refusal(pidfd: nil)
        #expect(asChild?.contains("is one of this daemon's extensions") == true, "\(asChild ?? "served")")
        #expect(ControlPeer(pid: getppid(), uid: 0).refusal(pidfd: nil) == nil)
        let gone = ControlPeer(pid: Int32.max - 1, uid: 0).refusal(pidfd: nil)
        #expect(gone?.contains("is gone") == true, "\(gone ?? "served")")
        let stranger = ControlPeer(pid: getppid(), uid: geteuid() == 4242 ? 4243 : 4242).refusal(pidfd: nil)
        #expect(stranger?.contains("neither root nor the daemon's user") == true, "\(stranger ?? "served")")
    }
}

/// What listens on a control path may not be the daemon: another user's socket squatting a
/// guessable path in /tmp, answering what it likes. `ctl` asks the kernel who it is, bounds the
/// answer, and prints what a terminal acts on written out.
@Suite("Control clients")
struct ControlClientTests {
    /// A Unix socket at a fresh path that answers one connection with `answer`, a byte every
    /// `pace` when given; records how many bytes it was sent. Closed by ``close()``.
    final class Impostor: @unchecked Sendable {
        let path: String
        private let fd: Int32
        private let lock = NSLock()
        private var received = 0
        private let finished = DispatchSemaphore(value: 0)

        init(answer: String, pace: Duration? = nil) throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("impostor-\(UUID().uuidString.prefix(8)).sock").path
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard bound == 0, listen(fd, 4) == 0 else { throw ControlError(description: "cannot listen on \(path)") }
            let listener = fd
            Thread { [self] in
                defer { finished.signal() }
                let peer = accept(listener, nil, nil)
                guard peer >= 0 else { return }
                defer { Glibc.close(peer) }
                // What the client sends, if anything, within a moment of its connecting.
                var poll = pollfd(fd: peer, events: Int16(POLLIN), revents: 0)
                if Glibc.poll(&poll, 1, 500) == 1 {
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    let n = recv(peer, &buffer, buffer.count, 0)
                    lock.withLock { received += max(0, n) }
                }
                for byte in Array(answer.utf8) {
                    guard Glibc.send(peer, [byte], 1, Int32(MSG_NOSIGNAL)) == 1 else { return }
                    if let pace {
                        Thread.sleep(forTimeInterval: Double(pace.components.attoseconds) / 1e18 + Double(pace.components.seconds))
                    }
                }
                if pace == nil { return }
            }.start()
        }

        /// Bytes the client sent it.
        var bytesReceived: Int { lock.withLock { received } }

        /// Waits for its one connection to end, then removes the socket.
        func close() {
            Glibc.shutdown(fd, Int32(SHUT_RDWR))
            Glibc.close(fd)
            _ = finished.wait(timeout: .now() + 10)
            unlink(path)
        }
    }

    @Test("a socket another user serves is refused before anything is sent to it")
    func anotherUsersSocket() async throws {
        let impostor = try Impostor(answer: #"{"ok":true,"message":"killed"}"# + "\n")
        var client = ControlClient(path: impostor.path)
        // The socket's user (this one) is not among them, nor is /tmp's owner.
        client.trustedUsers = [geteuid() == 65534 ? 65533 : 65534]
        client.trustsDirectoryOwner = false
        let refusal = try await offThePool { [client] in
            Swift.Result { try client.send(ControlRequest(command: "kill", bundle: "com.example.victim")) }
        }
        try await offThePool { impostor.close() }
        guard case .failure(let error) = refusal else { Issue.record("another user's socket was answered"); return }
        #expect("\(error)".contains("is served by uid \(geteuid()), neither root nor you nor the owner of its directory"), "\(error)")
        #expect(impostor.bytesReceived == 0, "the request went to another user's socket")
    }

    @Test("ctl prints what the socket answers with its escape sequences written out, on stdout and stderr")
    func escapesWrittenOut() async throws {
        for (answer, ok) in [
            (#"{"ok":true,"message":"\u001b]52;c;cHduZWQ=\u0007\u001b[2Jdone"}"#, true),
            (#"{"ok":false,"message":"\u001b]0;title\u0007refused"}"#, false)
        ] {
            let impostor = try Impostor(answer: answer + "\n")
            let result = try await CommandLineTests.run(["ctl", "status", "--control", impostor.path])
            try await offThePool { impostor.close() }
            #expect(result.status == (ok ? 0 : 1), "\(result.error)")
            let printed = ok ? result.output : result.error
            #expect(printed.contains("\\u{1B}"), "\(printed)")
            #expect(!(result.output + result.error).unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        }
    }

    @Test("an answer that trickles in ends at the client's deadline, however often a byte comes")
    func trickle() async throws {
        let impostor = try Impostor(answer: #"{"ok":true,"message":"slow"}"# + "\n", pace: .milliseconds(100))
        var client = ControlClient(path: impostor.path)
        client.timeout = .seconds(1)
        // Blocking calls, each on a thread of its own: not on the pool the other suites run on.
        let outcome = try await offThePool { [client] in Swift.Result { try client.send(ControlRequest(command: "status")) } }
        try await offThePool { impostor.close() }
        guard case .failure(let error) = outcome else { Issue.record("a trickling answer was taken"); return }
        #expect("\(error)".contains("did not answer within 1 s"), "\(error)")
    }

    @Test("a stale socket file of another user is neither reused nor removed", .enabled(if: getuid() == 0))
    func anotherUsersStaleSocket() async throws {
        let impostor = try Impostor(answer: "")
        impostor.close() // nobody listens now
        let path = impostor.path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        Glibc.close(fd)
        defer { unlink(path) }
        #expect(chown(path, 65534, 65534) == 0)
        await #expect {
            _ = try await ControlServer.bind(path: path) { _ in ControlResponse(ok: true, message: "") }
        } throws: { error in
            "\(error)".contains("is a socket of uid 65534, not yours")
        }
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_uid == 65534, "the other user's socket file is still there")
    }
}

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

import Foundation
import Testing

@testable import SandglassHost

/// cgroup v2 in a container or a systemd service: the host's own cgroup offers the memory
/// controller but, holding the host, cannot enable it for children. The host must then not
/// take it (every spawn would fail on a missing `memory.max`) but fall back and say why.
/// This machine's v2 hierarchy has no memory controller (it is bound to v1), so the cgroup
/// files are laid out in a temporary directory as such a cgroup shows them.
@Suite("Cgroup v2 delegation")
struct CgroupDelegationTests {
    private func cgroup(controllers: String) throws -> String {
        let own = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-cgroup-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: true)
        try controllers.write(toFile: own + "/cgroup.controllers", atomically: true, encoding: .utf8)
        return own
    }

    @Test("memory offered but not delegated to children: refused, naming the cgroup and the rule")
    func notDelegated() throws {
        let own = try cgroup(controllers: "cpuset cpu io memory pids\n")
        defer { try? FileManager.default.removeItem(atPath: own) }
        guard case .failure(let refusal) = CgroupController.v2Base(own: own, tag: "sandglass-1-dtest") else {
            Issue.record("a cgroup whose children get no memory controller was taken")
            return
        }
        #expect(refusal.description.contains(own) && refusal.description.contains("does not delegate the memory controller"), "\(refusal)")
    }

    @Test("no memory controller at all: refused before anything is made")
    func noMemoryController() throws {
        let own = try cgroup(controllers: "cpuset cpu io pids hugetlb\n")
        defer { try? FileManager.default.removeItem(atPath: own) }
        guard case .failure(let refusal) = CgroupController.v2Base(own: own, tag: "sandglass-1-dtest") else {
            Issue.record("a cgroup without the memory controller was taken")
            return
        }
        #expect(refusal.description.contains("offers no memory controller"), "\(refusal)")
        #expect(!FileManager.default.fileExists(atPath: own + "/sandglass-1-dtest"))
    }
}

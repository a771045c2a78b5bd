import CSandbox
import Foundation
import Glibc
import Testing

@testable import SandglassHost

/// A host SIGKILLed leaves its cgroups — and any process that escaped its parent-death signal
/// in them. The next host finds them by name, kills what is in them and removes them.
@Suite("Cgroup reclaim", .serialized)
struct CgroupReclaimTests {
    @Test("the groups of a dead host are reclaimed by the next: their processes killed, the groups removed")
    func deadHostsGroupsReclaimed() throws {
        // A stand-in for the host, alive while its group is made and entered (a host started by
        // a test running beside this one reclaims the groups of dead hosts at once), then ended.
        let standIn = try ChildProcess("/bin/sleep", ["1000"], environment: testEnvironment)
        defer {
            standIn.signal(SIGKILL)
            standIn.wait()
        }
        let stale = CgroupController.probe(tag: "sandglass-\(standIn.pid)-dreclaim")
        try #require(stale.layout != nil, "cgroups unavailable here: \(stale.unavailableReason ?? "")")
        let group = try #require(try stale.makeGroup(name: "com.example.escaped", memoryBytes: 64 << 20, maxTasks: 16))
        // A process that escaped its host: no parent-death signal, in the dead host's group.
        let devNull = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(devNull) }
        let spawned = try Spawner.spawn(
            SpawnRequest(
                executable: "/bin/sleep", arguments: ["1000"], environment: [:], workingDirectory: "/",
                policy: .bare, memoryBytes: 64 << 20, seccomp: nil, landlockRuleset: nil, cgroup: group, devNull: devNull))
        defer {
            _ = sg_pidfd_send_signal(spawned.pidfd, SIGKILL)
            var status: Int32 = 0, cpu: UInt64 = 0, rss: UInt64 = 0
            while sg_reap(spawned.pid, &status, &cpu, &rss) == 0 { sched_yield() }
            [spawned.pidfd, spawned.channelFD, spawned.outputFD].forEach { close($0) }
            group.remove()
            stale.removeBase()
        }
        // The host dies; the next host (any host starting on this machine reclaims the groups of
        // dead ones: one started by a test running beside this one may be first).
        standIn.signal(SIGKILL)
        standIn.wait()
        let next = CgroupController.probe()
        defer { next.removeBase() }
        // Killed: its pidfd becomes readable once it has ended.
        var fd = pollfd(fd: spawned.pidfd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&fd, 1, 5000) == 1, "the escaped process still runs")
        var status: Int32 = 0, cpu: UInt64 = 0, rss: UInt64 = 0
        #expect(sg_reap(spawned.pid, &status, &cpu, &rss) == 1)
        #expect(sg_wifsignaled(status) != 0 && sg_wtermsig(status) == SIGKILL)
        #expect(!FileManager.default.fileExists(atPath: group.memoryDir))
        if let pids = group.pidsDir { #expect(!FileManager.default.fileExists(atPath: pids)) }
    }

    @Test("a host's own groups are removed at its shutdown, with any process still in them killed")
    func shutdownKillsLeftovers() throws {
        let controller = CgroupController.probe(tag: "sandglass-\(getpid())-dleftover")
        try #require(controller.layout != nil, "cgroups unavailable here: \(controller.unavailableReason ?? "")")
        let group = try #require(try controller.makeGroup(name: "com.example.left", memoryBytes: 64 << 20, maxTasks: 16))
        let devNull = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(devNull) }
        let spawned = try Spawner.spawn(
            SpawnRequest(
                executable: "/bin/sleep", arguments: ["1000"], environment: [:], workingDirectory: "/",
                policy: .bare, memoryBytes: 64 << 20, seccomp: nil, landlockRuleset: nil, cgroup: group, devNull: devNull))
        defer {
            _ = sg_pidfd_send_signal(spawned.pidfd, SIGKILL)
            var status: Int32 = 0, cpu: UInt64 = 0, rss: UInt64 = 0
            while sg_reap(spawned.pid, &status, &cpu, &rss) == 0 { sched_yield() }
            [spawned.pidfd, spawned.channelFD, spawned.outputFD].forEach { close($0) }
        }
        group.remove()
        controller.removeBase()
        var fd = pollfd(fd: spawned.pidfd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&fd, 1, 5000) == 1, "the process left in the group still runs")
        var status: Int32 = 0, cpu: UInt64 = 0, rss: UInt64 = 0
        #expect(sg_reap(spawned.pid, &status, &cpu, &rss) == 1)
        #expect(sg_wifsignaled(status) != 0 && sg_wtermsig(status) == SIGKILL)
        #expect(!FileManager.default.fileExists(atPath: group.memoryDir))
    }
}

import Foundation
import Glibc
import SandglassHost
import Testing

/// Misbehaving widgets are contained, recorded with a typed outcome, and harm nothing else.
@Suite("Misbehaviour")
struct MisbehaviourTests {
    @Test("an internet socket fails; the errno is in the log and the denial is recorded")
    func internetSocket() async throws {
        try await withHost { host in
            try await host.install(Examples.app("Network.app"))
            await host.start()
            let denied = try await host.waitFor("sandbox.denied") { $0.string("syscall") == "socket" }
            #expect(denied.int("errno") == Int64(EACCES))
            #expect(denied.string("call") == "socket(AF_INET)")
            let line = try await host.waitFor("log") { ($0.string("message") ?? "").contains("socket(AF_INET) failed") }
            #expect(line.string("message")!.contains("errno \(EACCES)"))
            // It still answers: the denial is an errno, not a kill.
            _ = try await host.waitFor("timeline") { $0.bundle == "com.example.network.widget" }
        }
    }

    @Test("fork fails with EPERM; the extension goes on")
    func forkFails() async throws {
        try await withHost { host in
            try await host.install(Examples.app("Forking.app"))
            await host.start()
            let line = try await host.waitFor("log") { ($0.string("message") ?? "").contains("fork() failed") }
            #expect(line.string("message")!.contains("errno \(EPERM)"))
            let denied = try await host.waitFor("sandbox.denied")
            #expect(["fork", "clone", "vfork"].contains(denied.string("syscall") ?? ""))
            _ = try await host.waitFor("timeline") { $0.bundle == "com.example.forking.widget" }
        }
    }

    @Test("allocating past the memory limit is killed with reason memory")
    func memoryOverrun() async throws {
        try await withHost { host in
            try await host.install(Examples.app("MemoryHog.app"))
            await host.start()
            let killed = try await host.waitFor("killed") { $0.string("reason") == "memory" }
            #expect(killed.bundle == "com.example.memoryhog.widget")
            let exited = try await host.waitFor("exited") { $0.pid == killed.pid }
            #expect(exited.string("signal") == "SIGKILL")
            let end = try await host.waitFor("activation.end") { $0.bundle == killed.bundle && $0.string("kind") == "timeline" }
            #expect(end.string("outcome") == "killed")
            #expect(end.string("reason") == "memory")
        }
    }

    @Test("memory over the limit is also caught by the watchdog where no cgroup is used")
    func memoryWatchdog() async throws {
        try await withHost({ $0.sandbox.cgroups = false }) { host in
            try await host.install(Examples.app("MemoryHog.app"))
            await host.start()
            let killed = try await host.waitFor("killed") { $0.string("reason") == "memory" }
            #expect((killed.string("detail") ?? "").contains("watchdog"))
            // Its 64 MiB are touched and freed within a few milliseconds: caught by a reading, or
            // by its peak at its reply — never taken as its answer.
            let end = try await host.waitFor("activation.end") { $0.bundle == killed.bundle && $0.string("kind") == "timeline" }
            #expect(end.string("outcome") == "killed" && end.string("reason") == "memory", "\(end)")
        }
    }

    @Test("a memory spike between two of the watchdog's readings is caught at the reply, by the process's peak: its answer is not taken")
    func memorySpikeBetweenReadings() async throws {
        try await withHost({
            $0.sandbox.cgroups = false
            $0.sandbox.watchdogInterval = .seconds(3600) // no reading comes: only the peak can tell
            $0.budgetOverrides.launch = .seconds(10) // a launch late under the suite's load is not this test's
        }) { host in
            try await host.install(Examples.app("MemoryHog.app"))
            await host.start()
            let end = try await host.waitFor("activation.end") { $0.string("kind") == "timeline" }
            #expect(end.string("outcome") == "killed" && end.string("reason") == "memory", "\(end)")
            let killed = await host.events().first { $0.kind == .killed && $0.bundle == end.bundle && $0.string("reason") == "memory" }
            #expect(killed?.string("detail")?.contains("peak resident memory") == true, "\(String(describing: killed))")
        }
    }

    @Test("a garbage frame kills only that extension; the others go on")
    func garbageFrame() async throws {
        try await withHost { host in
            try await host.install(Examples.app("Garbage.app"))
            try await host.install(Examples.app("Leaderboard.app"))
            await host.start()
            let violation = try await host.waitFor("protocol.violation")
            #expect(violation.bundle == "com.example.garbage.widget")
            let killed = try await host.waitFor("killed") { $0.bundle == "com.example.garbage.widget" }
            #expect(killed.string("reason") == "protocolViolation")
            _ = try await host.waitFor("timeline") { $0.bundle == "com.example.leaderboard.widget" }
            let events = await host.events()
            #expect(
                !events.contains { $0.kind == .killed && $0.bundle == "com.example.leaderboard.widget" && $0.string("reason") != "idle" })
        }
    }
}

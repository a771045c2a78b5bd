import Foundation
import Glibc
import SandglassHost
import SandglassTesting
import Testing

/// Dates and durations no clock reaches — NaN, ±infinity, 10^300 s, 10^20 s since 1970 — sent
/// by RogueDates.app's extensions wherever the protocol carries one: a timeline's entries and
/// reload date, a background session's resource timeout, a task's earliest begin date, a Today
/// update's main-thread report; and numbers of 2^64-1 where the host takes one. The host runs
/// `sandglass run` in a process of its own here, so that a trap shows as its death, and a
/// second run on the same data directory recovers the journaled tasks. (`.after(Date.distantFuture)`, year 4001, was one of them: an ordinary
/// widget's policy.)
@Suite("Extreme values")
struct ExtremeValueTests {
    @Test(
        "the host survives every extreme date, duration and number, and a second host recovers the tasks they are journaled with")
    func extremes() async throws {
        let server = try await FixtureServer.start()
        defer { Task { await server.stop() } }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("extremes-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let app = try Examples.app("RogueDates.app")
        func run(log: String) throws -> ChildProcess {
            try ChildProcess(
                CommandLineTests.sandglass,
                [
                    "run", app, "--data-directory", dir + "/data", "--env", "ROGUE_HTTP_URL=\(server.url("/bytes/16"))",
                    "--log", log, "--duration", "120s", "--quiet"
                ], environment: testEnvironment)
        }
        func event(_ e: [String: Any], _ name: String, _ bundle: String) -> Bool {
            e["event"] as? String == name && e["bundle"] as? String == bundle
        }
        let dates = "com.example.roguedates.dates"
        let today = "com.example.roguedates.todaydates"
        let numbers = "com.example.roguedates.numbers"

        let first = try run(log: dir + "/first.jsonl")
        defer { first.signal(SIGKILL); _ = first.wait() }
        let timeline = try await HostRestartTests.waitInLog(dir + "/first.jsonl", of: first) { event($0, "timeline", dates) }
        #expect(timeline["policy"] as? String == "after")
        let update = try await HostRestartTests.waitInLog(dir + "/first.jsonl", of: first) { event($0, "update.result", today) }
        #expect(update["verdict"] as? String == "mainThreadBlocked", "\(update)")
        // Numbers of 2^64-1 first, then a timeline, then the requests issued to others: the host
        // took them without a trap, and named no activation it did not issue to this process.
        _ = try await HostRestartTests.waitInLog(dir + "/first.jsonl", of: first) {
            event($0, "mainThread.blocked", numbers) && $0["detail"] as? String == "another's"
        }
        let reports = HostRestartTests.events(dir + "/first.jsonl").filter {
            ($0["bundle"] as? String) == numbers
                && ["mainThread.blocked", "update.misuse", "event.handled"].contains($0["event"] as? String)
        }
        #expect(reports.allSatisfy { $0["activation"] == nil && $0["eventId"] == nil }, "\(reports)")
        // Every task was created and resumed, each session with its own resource timeout.
        let deadline = ContinuousClock.now + .seconds(60)
        while HostRestartTests.events(dir + "/first.jsonl").filter({ event($0, "task.created", dates) }).count < 5,
            ContinuousClock.now < deadline, first.isRunning
        {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(HostRestartTests.events(dir + "/first.jsonl").filter { event($0, "task.created", dates) }.count == 5)
        #expect(first.isRunning, "the host died: \(first.wait(timeout: .zero).map { "\($0)" } ?? "")")
        first.signal(SIGTERM)
        #expect(first.wait() == .signalled(SIGTERM), "alive until told to stop")

        // The journal holds tasks with those dates and timeouts: the next host starts on it.
        let second = try run(log: dir + "/second.jsonl")
        defer { second.signal(SIGKILL); _ = second.wait() }
        _ = try await HostRestartTests.waitInLog(dir + "/second.jsonl", of: second) { event($0, "task.recovered", dates) }
        _ = try await HostRestartTests.waitInLog(dir + "/second.jsonl", of: second) { event($0, "timeline", dates) }
        #expect(second.isRunning, "the second host died: \(second.wait(timeout: .zero).map { "\($0)" } ?? "")")
        second.signal(SIGTERM)
        #expect(second.wait() == .signalled(SIGTERM), "alive until told to stop")
    }

    @Test(
        "two widgets whose names run together (kind a/b in family c, kind a in b/c) are two widgets: each runs, and the run ends")
    func collidingNames() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("collider-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = dir + "/run.jsonl"
        let run = try ChildProcess(
            CommandLineTests.sandglass,
            ["run", try Examples.app("RogueDates.app"), "--data-directory", dir + "/data", "--log", log, "--duration", "3s", "--quiet"],
            environment: testEnvironment)
        defer { run.signal(SIGKILL); _ = run.wait() }
        // Both sleep after their timeline (policy never); the run's end wakes and stops them.
        let ended = run.wait(timeout: .seconds(60))
        #expect(ended == .exited(0), "the run did not end: \(ended.map { "\($0)" } ?? "still running after 60 s")")
        let timelines = HostRestartTests.events(log).filter {
            $0["event"] as? String == "timeline" && $0["bundle"] as? String == "com.example.roguedates.collider"
        }
        #expect(Set(timelines.compactMap { $0["kind"] as? String }) == ["a/b", "a"], "\(timelines)")
    }
}

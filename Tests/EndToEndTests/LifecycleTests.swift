import Foundation
import SandglassHost
import SandglassIPC
import Testing

/// The foundation end to end: extensions from the example bundles in a real host, as real
/// processes (`linux`) and in the test's process (`embedded`).
@Suite("Lifecycle")
struct LifecycleTests {
    static let leaderboard = "com.example.leaderboard.widget"

    @Test("install → spawn → hello → placeholder, snapshot, timeline for every kind → idle termination", arguments: Backend.tested)
    func widgetLifecycle(_ backend: Backend) async throws {
        try await withHost(on: backend, apps: [.leaderboard], { $0.budgetOverrides.idle = .milliseconds(500) }) { host in
            await host.start()
            let hello = try await host.waitFor("hello")
            #expect(hello.bundle == Self.leaderboard)
            guard case .array(let kinds)? = hello["kinds"] else { Issue.record("hello without kinds"); return }
            #expect(Set(kinds.compactMap(\.stringValue)) == ["Leaderboard", "NextMatch"])

            for kind in ["Leaderboard", "NextMatch"] {
                let timeline = try await host.waitFor("timeline") { $0.string("kind") == kind }
                guard case .array(let entries)? = timeline["entries"] else { Issue.record("no entries"); return }
                #expect(!entries.isEmpty)
                #expect(timeline.double("nextReload") != nil, "a timeline with a reload policy schedules its next reload")
            }
            let events = await host.events()
            for kind in ["placeholder", "snapshot", "timeline"] {
                #expect(
                    events.contains { $0.kind == .activationEnd && $0.string("kind") == kind && $0.string("outcome") == "ok" },
                    "\(kind) answered")
            }
            let idle = try await host.waitFor("killed") { $0.string("reason") == "idle" }
            let exited = try await host.waitFor("exited") { $0.pid == idle.pid }
            #expect(exited.string("signal") == "SIGKILL")
            #expect((exited.int("cpuMs") ?? -1) >= 0)
            if backend == .linux {
                // A process's own accounting: an embedded instance has no memory of its own to measure.
                #expect((exited.int("peakRSSKiB") ?? 0) > 0)
            }
            #expect(!processExists(idle.pid!))
        }
    }

    @Test(
        "a provider that hangs in getTimeline is killed within its budget; the last good timeline stays; the host goes on",
        arguments: Backend.tested)
    func hangingProviderKilled(_ backend: Backend) async throws {
        try await withHost(on: backend, apps: [.hanging, .leaderboard]) { host in
            await host.start()
            let killed = try await host.waitFor("killed") { $0.string("reason") == "timeBudget" }
            #expect(killed.bundle == "com.example.hanging.widget")
            let end = try await host.waitFor("activation.end") {
                $0.bundle == "com.example.hanging.widget" && $0.string("kind") == "timeline"
            }
            #expect(end.string("outcome") == "killed")
            let ms = end.double("ms") ?? 0
            #expect(ms >= 1000 && ms < 1500, "killed 1 s after the request (TimelineSeconds = 1), not \(ms) ms")
            let exited = try await host.waitFor("exited") { $0.pid == killed.pid }
            #expect(exited.string("signal") == "SIGKILL")
            #expect(!processExists(killed.pid!))
            // The other extension of the same host is unaffected.
            _ = try await host.waitFor("timeline") { $0.bundle == Self.leaderboard }
            let failed = try await host.waitFor("reload.failed") { $0.bundle == "com.example.hanging.widget" }
            #expect(failed.string("outcome") == "killed")
        }
    }

    @Test("an activation can be asked for directly, and a kill is a real SIGKILL of a real process")
    func directActivation() async throws {
        // Idle for long: the chaos kill, not the 5 s idle budget, is to end it on a starved machine.
        try await withHost({ $0.budgetOverrides.idle = .seconds(120) }) { host in
            try await host.install(Examples.app("Leaderboard.app"))
            let outcome = await host.activate(Self.leaderboard, .placeholder, widget: "Leaderboard")
            guard case .entry(let entry)? = outcome else { Issue.record("placeholder gave \(String(describing: outcome))"); return }
            #expect(!entry.json.isEmpty)
            let pid = try #require(await host.liveProcesses()[Self.leaderboard])
            #expect(processExists(pid))
            await host.kill(Self.leaderboard, reason: .chaos)
            let exited = try await host.waitFor("exited") { $0.pid == pid }
            #expect(exited.string("reason") == "chaos")
            #expect(!processExists(pid))
        }
    }

    @Test(
        "a host with a bounded event history keeps only its latest events in memory; the log file keeps every one",
        arguments: Backend.tested)
    func boundedHistory(_ backend: Backend) async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID().uuidString.prefix(8)).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        try await withHost(
            on: backend, apps: [.leaderboard],
            {
                $0.eventHistoryLimit = 4; $0.logPath = log; $0.budgetOverrides.idle = .milliseconds(200)
            }
        ) { host in
            await host.start()
            let killed = try await host.waitFor("killed") { $0.string("reason") == "idle" }
            let kept = await host.events()
            #expect(kept.count == 4)
            #expect((kept.last?.t ?? 0) >= killed.t, "the latest events stay")
            #expect(!kept.contains { $0.kind == .runStart }, "the oldest events left memory")
        }
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.first?.contains("\"run.start\"") == true)
        #expect(lines.contains { $0.contains("\"timeline\"") } && lines.count > 10)
    }
}

import Foundation
import SandglassHost
import SandglassIPC
import Testing

/// Crash-loop backoff: exponential delays with a cap on the run clock, the
/// permanent-failure rule, and a host whose other widgets are not starved.
@Suite("Crash-loop backoff", .timeLimit(.minutes(2)))
struct BackoffTests {
    @Test(
        "a hanging widget backs off and fails permanently; the good widgets of the same host get their reloads for a whole virtual day",
        arguments: Backend.tested)
    func hangingDoesNotStarve(_ backend: Backend) async throws {
        try await withHost(
            on: backend, apps: [.hanging, .leaderboard],
            {
                $0.clock = .virtual
                // No timeline ceiling: Hanging.app asks for 1 s, the good widget keeps its 30 s — a
                // 300 ms ceiling for both let a starved machine's scheduling kill the good one at its
                // punctual deadline.
                $0.relaunchBackoff.permanentFailureCount = 4
            }
        ) { host in
            await host.start()
            await host.advance(by: .seconds(86_400))
            let events = await host.events()

            // The hanging extension: killed, backed off 1 s, 2 s, 4 s, then failed permanently.
            let backoffs = select(events, "backoff.scheduled", of: "com.example.hanging.widget")
            #expect(backoffs.map { $0.double("delayMs") } == [1000, 2000, 4000])
            #expect(backoffs.allSatisfy { $0.string("cause") == "timeBudget" })
            let failed = try #require(select(events, "extension.failedPermanently").first)
            #expect(failed.bundle == "com.example.hanging.widget")
            #expect(failed.int("failures") == 4)
            // Each relaunch came no earlier than its backoff allowed.
            let spawns = select(events, "spawned", of: "com.example.hanging.widget")
            #expect(spawns.count == 4)
            for (backoff, spawn) in zip(backoffs, spawns.dropFirst()) {
                #expect(spawn.t >= (backoff.double("until") ?? .infinity))
            }
            let hanging = try #require(await host.explain("Hanging").first)
            #expect(hanging.status == .failedPermanently(since: failed.t))

            // The good widgets: a day of reloads, as their policies and budgets allow.
            let timelines = Dictionary(
                grouping: select(events, "timeline", of: "com.example.leaderboard.widget"),
                by: { $0.string("kind") ?? "" })
            #expect((timelines["Leaderboard"]?.count ?? 0) >= 55, "every 25 minutes: about 58 a day")
            #expect((timelines["NextMatch"]?.count ?? 0) == 61, "every 15 minutes, capped by the budget: 60 charged + the first")
            #expect(select(events, "reload.failed", of: "com.example.leaderboard.widget").isEmpty)

            // Cleared, it is launched again — and backs off from 1 s again.
            #expect(await host.clearFailures("com.example.hanging.widget"))
            let again = await host.advance(by: .seconds(600)) { $0.kind == .backoffScheduled && $0.bundle == "com.example.hanging.widget" }
            #expect(again?.double("delayMs") == 1000)
        }
    }

    @Test(
        "an extension that breaks the protocol on every launch: 1 s, 2 s, 4 s … on the run clock, then permanent after 10 within the hour")
    func protocolViolations() async throws {
        try await withHost({ $0.clock = .virtual }) { host in
            try await host.install(Examples.app("Garbage.app"))
            await host.start()
            let failed = await host.advance(by: .seconds(3600)) { $0.kind == .extensionFailedPermanently }
            #expect(failed?.int("failures") == 10)
            let all = await host.events()
            // Its placeholder and snapshot answer: on a loaded machine one may land in a later
            // launch than its first timeline, and clear the count (backoff.cleared). The run of
            // failures that tripped the rule is the one after the last clearing.
            let events = all.lastIndex { $0.kind == .backoffCleared }.map { Array(all[($0 + 1)...]) } ?? all
            let delays = select(events, "backoff.scheduled").compactMap { $0.double("delayMs") }
            #expect(delays == [1, 2, 4, 8, 16, 32, 64, 128, 256].map { $0 * 1000.0 })
            let kills = select(events, "killed").filter { $0.string("reason") == "protocolViolation" }
            #expect(kills.count == 10)
            let explanation = try #require(await host.explain("com.example.garbage.widget").first)
            #expect(explanation.statusText.contains("failed permanently"))
            // Its last good state stays: no timeline, so it keeps its placeholder.
            #expect(select(events, "reload.failed").allSatisfy { $0["keptTimeline"] == .bool(false) })
        }
    }
}

/// The events named `name` (of extension `bundle`), in order. (A loop rather than `filter`
/// closures: with Swift 6.3.1 several `filter` closures in one of these test bodies returned
/// another closure's results.)
private func select(_ events: [HostEvent], _ name: String, of bundle: String? = nil) -> [HostEvent] {
    var result: [HostEvent] = []
    for event in events where event.name == name && (bundle == nil || event.bundle == bundle) { result.append(event) }
    return result
}

/// An extension that cannot be started at all.
@Suite("Launch failures", .timeLimit(.minutes(2)))
struct LaunchFailureTests {
    @Test(
        "a widget extension that cannot be started is launched again after 1 s, 2 s, 4 s on the run clock, then fails permanently",
        arguments: Backend.tested)
    func unstartable(_ backend: Backend) async throws {
        // Leaderboard.app, whose launches fail: on linux its executable cannot be executed; the
        // embedded launcher is given no widgets for it.
        let app = BackendApp(name: "Leaderboard.app") { [:] }
        let bundles = try BackendBundles(backend, [app])
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-unstartable-\(UUID().uuidString.prefix(8))")
        defer {
            try? FileManager.default.removeItem(at: scratch)
            bundles.remove()
        }
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let copy = scratch.appendingPathComponent("Leaderboard.app")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: bundles.path(app)), to: copy)
        if backend == .linux {
            // A script whose interpreter does not exist: execve fails (ENOENT) on every launch.
            let executable = copy.appendingPathComponent("PlugIns/LeaderboardWidget.appex/LeaderboardWidget")
            try FileManager.default.removeItem(at: executable)
            try "#!/nonexistent/interpreter\n".write(to: executable, atomically: false, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable.path)
        }

        try await withHost(
            on: backend, apps: [app], installing: false,
            {
                $0.clock = .virtual
                $0.relaunchBackoff.permanentFailureCount = 4
            }
        ) { host in
            try await host.install(copy.path)
            await host.start()
            let failed = await host.advance(by: .seconds(3600)) { $0.kind == .extensionFailedPermanently }
            #expect(failed?.bundle == "com.example.leaderboard.widget")
            #expect(failed?.int("failures") == 4)
            let events = await host.events()
            #expect(select(events, "spawn.failed").count == 4)
            #expect(select(events, "backoff.scheduled").compactMap { $0.double("delayMs") } == [1000, 2000, 4000])
        }
    }
}

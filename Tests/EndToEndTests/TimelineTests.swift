import Foundation
import SandglassHost
import SandglassIPC
import Testing

/// Timelines in the host: recorded as the extension encoded them, reloaded by policy and on request.
@Suite("Timelines")
struct TimelineTests {
    @Test(
        "WidgetCenter.reloadTimelines(ofKind:) is honoured: a second timeline follows, and .never schedules nothing",
        arguments: Backend.tested)
    func widgetCenterReload(_ backend: Backend) async throws {
        try await withHost(on: backend, apps: [.reloading]) { host in
            await host.start()
            let first = try await host.waitFor("timeline") { $0.bundle == "com.example.reloading.widget" }
            #expect(first.string("policy") == "never")
            #expect(first["nextReload"] == JSONValue.null)
            _ = try await host.waitFor("reload.requested") { $0.string("reason") == "reloadTimelines" }
            let timelines = try await host.waitForTimelines(2, of: "com.example.reloading.widget")
            guard case .array(let entries)? = timelines[1]["entries"]?.resolved, let entry = entries.first else {
                Issue.record("second timeline without entries"); return
            }
            #expect(entry["generation"] == .int(2))
        }
    }

    @Test("Apple-style provider code (Swift 5, plain @escaping, non-Codable entry) runs under the host; text rendering recorded")
    func appleStyleSample() async throws {
        try await withHost { host in
            try await host.install(Examples.app("AppleStyle.app"))
            await host.start()
            let timeline = try await host.waitFor("timeline") { $0.bundle == "com.example.applestyle.widget" }
            guard case .array(let entries)? = timeline["entries"], case .array(let texts)? = timeline["texts"] else {
                Issue.record("no entries or texts"); return
            }
            #expect(!entries.isEmpty)
            #expect(texts.count == entries.count)
            #expect(texts.allSatisfy { ($0.stringValue ?? "").isEmpty == false })
        }
    }

    @Test("on the virtual clock an hour of reloads by policy passes in real seconds", arguments: Backend.tested)
    func virtualHour(_ backend: Backend) async throws {
        try await withHost(
            on: backend, apps: [.leaderboard],
            {
                $0.clock = .virtual; $0.budgetOverrides.idle = .seconds(1)
            }
        ) { host in
            await host.start()
            await host.run(for: .seconds(3600))
            let events = await host.events()
            let policyReloads = events.filter { $0.kind == .reloadRequested && $0.string("reason") == "policy" }
            #expect(policyReloads.count >= 4, "NextMatch reloads every 15 min, Leaderboard every 25 min")
            let spacing = Dictionary(grouping: policyReloads, by: { $0.string("kind") ?? "" })
            for (_, reloads) in spacing {
                for (a, b) in zip(reloads, reloads.dropFirst()) {
                    #expect(b.t - a.t >= 299_000, "reloads of one widget are at least 5 minutes apart")
                }
            }
        }
    }
}

extension ExtensionHost {
    /// Waits until `count` timelines of `bundle` are recorded and returns them.
    func waitForTimelines(_ count: Int, of bundle: String, timeout: Duration = .seconds(20)) async throws -> [HostEvent] {
        let stream = await eventStream(replay: true)
        return try await withThrowingTaskGroup(of: [HostEvent]?.self) { group in
            group.addTask {
                var seen: [HostEvent] = []
                for await event in stream where event.kind == .timeline && event.bundle == bundle {
                    seen.append(event)
                    if seen.count == count { return seen }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let result = try await group.next(), let timelines = result else { throw HostError.timedOut(timeout) }
            return timelines
        }
    }
}

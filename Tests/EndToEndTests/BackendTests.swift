import Foundation
import SandglassHost
import SandglassIPC
import Testing

/// One test body, two backends: the host's scheduling, budgets and backoff on the run clock,
/// with each extension a real sandboxed child (`linux`) or the SDK's runtime in the test's
/// process (`embedded`, milliseconds, no process spawned).
@Suite("Backends", .timeLimit(.minutes(2)))
struct BackendTests {
    static let leaderboard = "com.example.leaderboard.widget"
    static let hanging = "com.example.hanging.widget"
    static let reloading = "com.example.reloading.widget"

    @Test(
        "install → placeholder, snapshot, timeline → a virtual day of reloads by policy, every widget charged within its budget",
        arguments: Backend.tested)
    func dayOfReloads(_ backend: Backend) async throws {
        try await withHost(on: backend, apps: [.leaderboard], { $0.clock = .virtual }) { host in
            await host.start()
            await host.advance(by: .seconds(86_400))
            let events = await host.events()
            for kind in ["placeholder", "snapshot", "timeline"] {
                #expect(
                    events.contains { $0.kind == .activationEnd && $0.string("kind") == kind && $0.string("outcome") == "ok" },
                    "\(kind) answered")
            }
            let timelines = Dictionary(grouping: named(events, "timeline", of: Self.leaderboard), by: { $0.string("kind") ?? "" })
            #expect((timelines["Leaderboard"]?.count ?? 0) >= 55, "every 25 minutes: about 58 a day")
            #expect((timelines["NextMatch"]?.count ?? 0) == 61, "every 15 minutes, capped by the budget: 60 charged + the first")
            let policy = named(events, "reload.requested", of: Self.leaderboard).filter { $0.string("reason") == "policy" }
            #expect(policy.count >= 100)
            #expect(ReloadAudit.budgetViolations(in: events).isEmpty)
            let ledger = await host.ledger()
            let charged = Dictionary(grouping: ledger.filter { $0.decision == .charged }, by: \.widget)
            #expect(!charged.isEmpty)
            #expect(charged.values.allSatisfy { $0.count <= 60 }, "no widget charged more than 60 reloads in the day")
            #expect(named(events, "reload.failed").isEmpty)
        }
    }

    @Test(
        "a provider that never completes is killed at its budget, backs off 1 s, 2 s, 4 s on the run clock, then fails permanently",
        arguments: Backend.tested)
    func hangingBacksOff(_ backend: Backend) async throws {
        try await withHost(
            on: backend, apps: [.hanging],
            {
                $0.clock = .virtual
                $0.relaunchBackoff.permanentFailureCount = 4
            }
        ) { host in
            await host.start()
            let failed = await host.advance(by: .seconds(3600)) { $0.kind == .extensionFailedPermanently }
            #expect(failed?.bundle == Self.hanging)
            #expect(failed?.int("failures") == 4)
            let events = await host.events()
            let backoffs = named(events, "backoff.scheduled", of: Self.hanging)
            #expect(backoffs.map { $0.double("delayMs") } == [1000, 2000, 4000])
            #expect(backoffs.allSatisfy { $0.string("cause") == "timeBudget" })
            let kills = named(events, "killed", of: Self.hanging)
            #expect(kills.count == 4)
            #expect(kills.allSatisfy { $0.string("reason") == "timeBudget" })
            let exits = named(events, "exited", of: Self.hanging)
            #expect(exits.map { $0.string("signal") } == Array(repeating: "SIGKILL", count: 4))
            let spawns = named(events, "spawned", of: Self.hanging)
            #expect(spawns.count == 4)
            for (backoff, spawn) in zip(backoffs, spawns.dropFirst()) {
                #expect(spawn.t >= (backoff.double("until") ?? .infinity), "relaunched no earlier than its backoff allowed")
            }
            // The placeholder and snapshot it did answer stay; no timeline was ever recorded.
            #expect(named(events, "timeline", of: Self.hanging).isEmpty)
        }
    }

    @Test(
        "WidgetCenter.reloadTimelines(ofKind:) from the provider is charged to the widget's budget, a second timeline follows, and .never schedules nothing",
        arguments: Backend.tested)
    func widgetCenterReload(_ backend: Backend) async throws {
        try await withHost(on: backend, apps: [.reloading], { $0.clock = .virtual }) { host in
            await host.start()
            let second = await host.seen(within: .seconds(3600)) { $0.kind == .timeline && generation(of: $0) == 2 }
            #expect(second != nil, "a second timeline followed the reload")
            await host.advance(by: .seconds(86_400))
            let events = await host.events()
            let timelines = named(events, "timeline", of: Self.reloading)
            #expect(timelines.map(generation(of:)) == [1, 2], ".never: nothing more in a day")
            #expect(timelines.first?.string("policy") == "never")
            let requested = named(events, "reload.requested", of: Self.reloading).filter { $0.string("reason") == "reloadTimelines" }
            #expect(requested.count == 1)
            #expect(requested.first?["charged"] == .bool(true))
            let ledger = await host.ledger(widget: "\(Self.reloading)/Reloading/systemSmall")
            let decided = ledger.filter { $0.decision != .coalesced }.map { "\($0.decision.rawValue):\($0.reason)" }
            #expect(decided == ["exempt:initial", "charged:reloadTimelines"])
        }
    }
}

/// The events named `name` (of extension `bundle`), in order.
private func named(_ events: [HostEvent], _ name: String, of bundle: String? = nil) -> [HostEvent] {
    var result: [HostEvent] = []
    for event in events where event.name == name && (bundle == nil || event.bundle == bundle) { result.append(event) }
    return result
}

/// The `generation` of a timeline's first entry (Reloading.app).
private func generation(of timeline: HostEvent) -> Int? {
    guard case .array(let entries)? = timeline["entries"]?.resolved, case .int(let value)? = entries.first?["generation"] else {
        return nil
    }
    return Int(value)
}

import Foundation
import SandglassHost
import SandglassIPC
import Testing

/// Reload budgets on both backends and the virtual clock: the ledger in the event log, the
/// exemptions, debug mode, the system's date for single-entry timelines.
@Suite("Reload budgets", .timeLimit(.minutes(2)))
struct BudgetTests {
    static let fleet = EmbeddedFleet.extensions
    static let day = 86_400_000.0

    /// `bundle/kind/family` of a widget event.
    static func widget(_ event: HostEvent) -> String {
        "\(event.bundle ?? "")/\(event.string("kind") ?? "")/\(event.string("family") ?? "")"
    }

    @Test(
        "50 widgets over two virtual days: none is ever charged more than 60 reloads in any 24 hours, and those that ask often use all 60",
        arguments: Backend.tested)
    func neverOverBudget(_ backend: Backend) async throws {
        try await withHost(
            on: backend, apps: [.fleet],
            {
                $0.clock = .virtual; $0.budgetOverrides.idle = .seconds(3 * 86_400)
            }
        ) { host in
            await host.start()
            await host.advance(by: .seconds(2 * 86_400))
            let events = await host.events()
            let widgets = Set(events.filter { $0.kind == .widgetAdded }.map(Self.widget))
            #expect(widgets.count == 50)

            // The property, checked here over the log without the host's own audit.
            var charged: [String: [Int64]] = [:]
            for event in events where event.kind == .reloadRequested && event["charged"] == .bool(true) {
                charged[Self.widget(event), default: []].append(Int64((event.t * 1000).rounded()))
            }
            for (widget, times) in charged {
                var first = 0
                var worst = 0
                for (last, t) in times.enumerated() {
                    while t - times[first] >= 86_400_000_000 { first += 1 }
                    worst = max(worst, last - first + 1)
                }
                #expect(worst <= 60, "\(widget) was charged \(worst) reloads within 24 h")
            }

            // Those that ask more often than the budget allows get exactly their 60 a day, and are told no.
            func count(_ widget: String, from: Double, to: Double) -> Int {
                (charged[widget] ?? []).filter { Double($0) / 1000 >= from && Double($0) / 1000 < to }.count
            }
            for bundle in Self.fleet {
                for kind in ["Eager", "Quarterly", "Single", "Stale", "Greedy"] {
                    let widget = "\(bundle)/\(kind)/systemSmall"
                    #expect(count(widget, from: 0, to: Self.day) == 60, "\(widget) used its whole budget on day 1")
                    #expect(
                        events.contains {
                            $0.kind == .reloadDenied && Self.widget($0) == widget && $0.string("reason") == "budgetExhausted"
                        })
                }
                let greedy = "\(bundle)/Greedy/systemSmall"
                #expect(count(greedy, from: Self.day, to: 2 * Self.day) == 60, "the budget comes back as the window rolls")
                let hourly = "\(bundle)/Hourly/systemSmall"
                #expect((23...25).contains(count(hourly, from: 0, to: Self.day)), "an hourly widget: about 24 a day")
                #expect(!events.contains { $0.kind == .reloadDenied && Self.widget($0) == hourly }, "and never denied")
            }
            #expect(ReloadAudit.budgetViolations(in: events).isEmpty)
        }
    }

    @Test(
        "the ledger: charged, denied with its date, then free while the app is in the foreground, for an app intent, a system change, a location change",
        arguments: Backend.tested)
    func exemptions(_ backend: Backend) async throws {
        try await withHost(
            on: backend, apps: [.fleet],
            {
                $0.clock = .virtual; $0.budgetOverrides.reloadsPerDay = 2; $0.budgetOverrides.idle = .seconds(86_400)
            }
        ) { host in
            await host.start()
            let widget = "com.example.fleet.alpha/AppDriven/systemSmall"
            @Sendable func decided(_ event: HostEvent) -> Bool {
                (event.kind == .reloadRequested || event.kind == .reloadDenied) && BudgetTests.widget(event) == widget
            }
            _ = await host.seen(within: .seconds(60)) { decided($0) && $0.string("reason") == "initial" }

            for _ in 0..<3 {
                #expect(await host.reloadTimelines(ofKind: "AppDriven", app: "com.example.fleet") == 5)
                _ = await host.advance(by: .seconds(60)) { decided($0) && $0.string("origin") == "app" && $0.t > 0 }
                _ = await host.advance(by: .seconds(1))
            }
            await host.setAppForeground(true)
            await host.reloadTimelines(ofKind: "AppDriven")
            _ = await host.advance(by: .seconds(60)) { decided($0) && $0.string("exempt") == "appForeground" }
            await host.setAppForeground(false)
            #expect(await host.performAppIntent(widget: widget) == 1)
            _ = await host.advance(by: .seconds(60)) { decided($0) && $0.string("exempt") == "appIntent" }
            await host.simulateSystemChange(.locale)
            _ = await host.advance(by: .seconds(60)) { decided($0) && $0.string("exempt") == "systemChange" }
            await host.requestReload(widget: widget, reason: .significantLocationChange)
            _ = await host.advance(by: .seconds(60)) { decided($0) && $0.string("exempt") == "significantLocationChange" }

            let ledger = await host.ledger(widget: widget).filter { $0.decision != .coalesced }
            let summary = ledger.map { "\($0.decision.rawValue):\($0.exemption?.rawValue ?? $0.denial ?? $0.reason)" }
            #expect(
                summary == [
                    "exempt:widgetAdded", "charged:reloadTimelines", "charged:reloadTimelines", "denied:budgetExhausted",
                    "exempt:appForeground", "exempt:appIntent", "exempt:systemChange", "exempt:significantLocationChange"
                ])
            let denial = try #require(ledger.first { $0.decision == .denied })
            let firstCharge = try #require(ledger.first { $0.decision == .charged })
            #expect(denial.until == firstCharge.t + 86_400_000, "withheld until the first charge leaves the 24-hour window")
            #expect(ledger.last?.remaining == 0, "exempt reloads leave the budget as it was")

            // Eager spends its two reloads within ten minutes: explain says it is blocked, and until when.
            await host.advance(by: .seconds(3600))
            let eager = try #require(await host.explain("com.example.fleet.alpha/Eager/systemSmall").first)
            guard case .budgetExhausted(let until) = eager.status else {
                Issue.record("Eager is \(eager.status)"); return
            }
            #expect(until > 86_000_000)
            #expect(eager.statusText.contains("reload budget exhausted (2 of 2"))
        }
    }

    @Test(
        "debug mode lifts the budget and the 5-minute spacing, as Xcode does (reloads stay a second apart); every reload is still in the ledger",
        arguments: Backend.tested)
    func debugReloads(_ backend: Backend) async throws {
        try await withHost(
            on: backend, apps: [.fleet],
            {
                $0.clock = .virtual; $0.debugReloads = true; $0.budgetOverrides.idle = .seconds(86_400)
            }
        ) { host in
            await host.start()
            await host.advance(by: .seconds(600))
            let events = await host.events()
            let eager = events.filter { $0.kind == .reloadRequested && Self.widget($0) == "com.example.fleet.alpha/Eager/systemSmall" }
            #expect(eager.count >= 9, "its .after(now + 1 min) is honoured, not clamped to 5 minutes")
            for (a, b) in zip(eager.dropFirst(), eager.dropFirst(2)) {
                #expect(b.t - a.t >= 59_000 && b.t - a.t < 62_000)
            }
            let greedy = events.filter { $0.kind == .reloadRequested && Self.widget($0) == "com.example.fleet.alpha/Greedy/systemSmall" }
            #expect(greedy.count > 60, "over the budget")
            for (a, b) in zip(greedy.dropFirst(), greedy.dropFirst(2)) {
                #expect(b.t - a.t >= 1000, "a WidgetCenter request from every getTimeline cannot spin: a second apart")
            }
            #expect(
                events.filter { $0.kind == .reloadRequested }.allSatisfy {
                    $0.string("exempt") == "debugReloads" || $0.string("exempt") == "widgetAdded"
                })
            #expect(!events.contains { $0.kind == .reloadDenied })
        }
        try await withHost(
            on: backend, apps: [.leaderboard],
            {
                $0.clock = .virtual; $0.debugReloads = true
            }
        ) { host in
            await host.start()
            await host.advance(by: .seconds(86_400))
            let nextMatch = await host.events().filter { $0.kind == .reloadRequested && $0.string("kind") == "NextMatch" }
            #expect(nextMatch.count >= 90, "every 15 minutes for a day: 96, over the budget of 60")
        }
    }

    @Test(
        "a single-entry .atEnd timeline: the system chooses the date — 15 min when always visible, 60 min when seldom",
        arguments: Backend.tested)
    func systemChosenDate(_ backend: Backend) async throws {
        try await withHost(
            on: backend, apps: [.fleet],
            {
                $0.clock = .virtual; $0.budgetOverrides.idle = .seconds(86_400)
            }
        ) { host in
            await host.start()
            let widget = "com.example.fleet.alpha/Single/systemSmall"
            @Sendable func singleTimeline(_ event: HostEvent) -> Bool { event.kind == .timeline && BudgetTests.widget(event) == widget }
            let first = try #require(await host.seen(within: .seconds(60), where: singleTimeline))
            #expect(first["systemChosen"] == .bool(true))
            let interval = try #require(first.double("nextReload")) - first.t
            #expect(abs(interval - 900_000) < 1, "15 minutes (\(interval) ms)")
            await host.setVisibility(.seldom, widget: widget)
            let second = try #require(await host.advance(by: .seconds(1800)) { singleTimeline($0) && $0.t > first.t })
            #expect(second.string("visibility") == "seldom")
            let longer = try #require(second.double("nextReload")) - second.t
            #expect(abs(longer - 3_600_000) < 1, "60 minutes (\(longer) ms)")
        }
    }
}

import Foundation
import SandglassHost
import Testing

/// The shipped scenario files (Examples/Scenarios): the seed's five test scenarios and the
/// multiple-extensions advice, each run over days on the virtual clock with the app's extensions
/// as real processes (`linux`) or in the test's process (`embedded`), and held to the
/// expectations it lists.
@Suite("Location scenarios", .serialized)
struct ScenarioTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/Scenarios").path

    /// The scenarios' apps, by bundle name.
    static let apps: [String: BackendApp] = ["Commute.app": .commute, "Nearby.app": .nearby]

    /// Runs the scenario `name` on its app on `backend` and returns the events.
    static func run(_ name: String, on backend: Backend) async throws -> (Scenario, [HostEvent], Duration) {
        let scenario = try Scenario.load(directory + "/" + name)
        let name = try #require(scenario.app)
        let app = try #require(apps[name], "\(name) has no embedded copy: add it to ScenarioTests.apps")
        var events: [HostEvent] = []
        let started = ContinuousClock.now
        try await withHost(
            on: backend, apps: [app],
            { configuration in
                scenario.apply(to: &configuration)
                // The process lives between reloads (they come every few minutes of virtual time),
                // so days pass without a spawn per reload.
                configuration.budgetOverrides.idle = .seconds(6 * 3600)
            }
        ) { host in
            await host.start()
            await host.run(for: try #require(scenario.duration))
            events = await host.events()
        }
        return (scenario, events, ContinuousClock.now - started)
    }

    static func statuses(_ events: [HostEvent], from: Double = 0, until: Double = .infinity) -> [String] {
        events.filter { $0.kind == .timeline && $0.t >= from && $0.t < until }.compactMap { event in
            guard case .array(let entries)? = event["entries"]?.resolved else { return nil }
            return entries.first?["status"]?.stringValue
        }
    }

    static let day = 86_400_000.0

    @Test(
        "1. authorization extended when the widget is added: location at once, and reloads for the commute's moves",
        arguments: Backend.tested)
    func extendedWhenAdded(_ backend: Backend) async throws {
        let (scenario, events, took) = try await Self.run("extended-when-added.json", on: backend)
        #expect(scenario.failures(in: events) == [])
        #expect(events.last { $0.kind == .timeline }.map { $0.t > 2.9 * Self.day } == true, "the run lasted three days")
        let first = try #require(events.first { $0.kind == .locationDelivered })
        #expect(first.t < 60_000, "right after the widget was added")
        #expect(took < .seconds(60))
    }

    @Test("2. authorization not extended: three days without a location", arguments: Backend.tested)
    func notExtended(_ backend: Backend) async throws {
        let (scenario, events, _) = try await Self.run("not-extended.json", on: backend)
        #expect(scenario.failures(in: events) == [])
        #expect(Set(Self.statuses(events)) == ["notAuthorized"])
    }

    @Test("3. the app's authorization changed after adding: located, then denied for a day, then always", arguments: Backend.tested)
    func appAuthorizationChanged(_ backend: Backend) async throws {
        let (scenario, events, _) = try await Self.run("app-authorization-changed.json", on: backend)
        #expect(scenario.failures(in: events) == [])
        #expect(Set(Self.statuses(events, until: Self.day)) == ["located"])
        #expect(Set(Self.statuses(events, from: Self.day + 60_000, until: 2 * Self.day)) == ["notAuthorized"])
        #expect(Set(Self.statuses(events, from: 2 * Self.day + 60_000)) == ["located"])
    }

    @Test("4. the widget's approval changed after adding: declined for a day, then extended again", arguments: Backend.tested)
    func widgetApprovalChanged(_ backend: Backend) async throws {
        let (scenario, events, _) = try await Self.run("widget-approval-changed.json", on: backend)
        #expect(scenario.failures(in: events) == [])
        #expect(Set(Self.statuses(events, from: Self.day + 60_000, until: 2 * Self.day)) == ["notAuthorized"])
        #expect(Set(Self.statuses(events, from: 2 * Self.day + 60_000)) == ["located"])
    }

    @Test(
        "5. pages viewed often, then seldom: in use most of the time, then rarely; moves delivered when next viewed",
        arguments: Backend.tested)
    func pagesOftenAndSeldom(_ backend: Backend) async throws {
        let (scenario, events, _) = try await Self.run("pages-often-and-seldom.json", on: backend)
        #expect(scenario.failures(in: events) == [])
        func share(_ from: Double, _ until: Double) -> Double {
            let s = Self.statuses(events, from: from, until: until)
            return Double(s.filter { $0 == "located" }.count) / Double(max(1, s.count))
        }
        #expect(share(0, Self.day) > 0.4, "often viewed: located \(share(0, Self.day))")
        #expect(share(Self.day + 60_000, 3 * Self.day) < 0.3, "seldom viewed: located \(share(Self.day + 60_000, 3 * Self.day))")
        // Every significant-change reload after the move happens at a view of the seldom page.
        let reloads = events.filter { $0.kind == .reloadRequested && $0.string("reason") == "significantLocationChange" && $0.t > Self.day }
        let views = events.filter { $0.kind == .widgetsVisible }.map(\.t)
        #expect(!reloads.isEmpty)
        for reload in reloads {
            #expect(views.contains { abs($0 - reload.t) < 10_000 }, "reload at \(reload.t) is at a view")
        }
    }

    @Test("multiple extensions: only the one with NSWidgetWantsLocation is asked and gets location", arguments: Backend.tested)
    func multipleExtensions(_ backend: Backend) async throws {
        let (scenario, events, _) = try await Self.run("multiple-extensions.json", on: backend)
        #expect(scenario.failures(in: events) == [])
        #expect(Set(events.filter { $0.kind == .locationDelivered }.compactMap(\.bundle)) == ["com.example.commute.nearby"])
    }
}

import Foundation
import SandglassHost
import SandglassIPC
import Testing

/// Location in widgets end to end: the Nearby example's CLLocationManager in a real process
/// (`linux`) or in the test's (`embedded`), answered by the host under the authorization, the
/// key and the in-use window.
@Suite("Location in widgets", .serialized)
struct LocationTests {
    static let nearby = "com.example.nearby.widget"

    /// The status of the first entry of `timeline`.
    static func status(_ timeline: HostEvent) -> String? {
        guard case .array(let entries)? = timeline["entries"]?.resolved, let first = entries.first else { return nil }
        return first["status"]?.stringValue
    }

    @Test("authorized and extended, on screen: the widget is asked, gets the run's position, and shows it", arguments: Backend.tested)
    func delivered(_ backend: Backend) async throws {
        try await withHost(
            on: backend, apps: [.nearby], { $0.location.position = .fixed(GeoCoordinate(latitude: 52.52, longitude: 13.405)) }
        ) { host in
            await host.start()
            let prompt = try await host.waitFor("location.prompt")
            #expect(prompt.bundle == Self.nearby)
            #expect(prompt.string("answer") == "extended")
            let delivered = try await host.waitFor("location.delivered")
            #expect(delivered.bundle == Self.nearby)
            #expect(delivered.string("mode") == "requestLocation")
            #expect(delivered.double("latitude") == 52.52 && delivered.double("longitude") == 13.405)
            let timeline = try await host.waitFor("timeline") { $0.bundle == Self.nearby }
            #expect(Self.status(timeline) == "located")
            guard case .array(let entries)? = timeline["entries"]?.resolved else { return }
            #expect(entries[0]["authorizedForWidgetUpdates"] == .bool(true))
            #expect(entries[0]["appAuthorization"] == .int(4))
            let km = entries[0]["distanceToApplePark"]?.doubleValue ?? 0
            #expect(km > 9_000 && km < 9_200, "Berlin is about 9,100 km from Apple Park, not \(km)")
        }
    }

    @Test(
        "When In Use not extended to widgets: isAuthorizedForWidgetUpdates is false, no location, the widget says so",
        arguments: Backend.tested)
    func declined(_ backend: Backend) async throws {
        try await withHost(on: backend, apps: [.nearby], { $0.location.widgetApproval = .declined }) { host in
            await host.start()
            let timeline = try await host.waitFor("timeline") { $0.bundle == Self.nearby }
            #expect(Self.status(timeline) == "notAuthorized")
            let prompt = try await host.waitFor("location.prompt")
            #expect(prompt.string("answer") == "declined")
            #expect(await host.events().contains { $0.kind == .locationDelivered } == false)
        }
    }

    @Test("authorized but never visible: not in use, so CLError.locationUnknown and 'location not available'", arguments: Backend.tested)
    func notInUse(_ backend: Backend) async throws {
        try await withHost(on: backend, apps: [.nearby], { $0.visibility = .never }) { host in
            await host.start()
            let unavailable = try await host.waitFor("location.unavailable")
            #expect(unavailable.string("why") == "notInUse")
            #expect(unavailable.string("error") == "locationUnknown")
            let timeline = try await host.waitFor("timeline") { $0.bundle == Self.nearby }
            #expect(Self.status(timeline) == "locationUnavailable")
        }
    }

    @Test("the app's authorization changed during the run: the live extension is told, later reloads follow it", arguments: Backend.tested)
    func authorizationChangedDuringRun(_ backend: Backend) async throws {
        try await withHost(on: backend, apps: [.nearby], { $0.budgetOverrides.idle = .seconds(60) }) { host in
            await host.start()
            let first = try await host.waitFor("timeline") { $0.bundle == Self.nearby }
            #expect(Self.status(first) == "located")
            await host.apply(ScenarioChange(at: .zero, authorization: .denied, note: "Settings"))
            let change = try await host.waitFor("location.authorization") { $0.string("cause") == "api" }
            #expect(change.string("authorization") == "denied")
            guard case .array(let exts)? = change["extensions"], case .object(let fields)? = exts.first else {
                Issue.record("no extensions"); return
            }
            #expect(fields.first { $0.0 == "authorizedForWidgetUpdates" }?.1 == .bool(false))
            // The widget's delegate hears it; a timeline asked for now shows it.
            let outcome = await host.activate(Self.nearby, .timeline, widget: "Nearby")
            guard case .timeline(let timeline)? = outcome, let entry = timeline.entries.first else {
                Issue.record("\(String(describing: outcome))"); return
            }
            let json = try JSONSerialization.jsonObject(with: Data(entry.json)) as? [String: Any]
            #expect(json?["status"] as? String == "notAuthorized")
            #expect(json?["appAuthorization"] as? Int == 2)
        }
    }

    @Test(
        "the in-use window: location while visible and for the window after, not later (virtual clock, a 60 s window)",
        arguments: Backend.tested)
    func inUseWindow(_ backend: Backend) async throws {
        // On the virtual clock, with margins far wider than any activation takes on a loaded
        // machine: time jumps while the test waits, and flows at the real pace only while an
        // activation is in progress.
        try await withHost(
            on: backend, apps: [.nearby],
            {
                $0.clock = .virtual
                $0.visibility = .periodic(every: .seconds(3600), for: .seconds(2))
                $0.location.inUseWindow = .seconds(60)
                $0.budgetOverrides.idle = .seconds(600)
            }
        ) { host in
            await host.start()
            func status() async throws -> String? {
                guard case .timeline(let timeline)? = await host.activate(Self.nearby, .timeline, widget: "Nearby"),
                    let entry = timeline.entries.first
                else { return nil }
                return (try JSONSerialization.jsonObject(with: Data(entry.json)) as? [String: Any])?["status"] as? String
            }
            _ = try await host.waitFor("widgets.hidden") // at 2 s
            await host.run(for: .seconds(10))
            #expect(try await status() == "located", "about 10 s after the widgets were last visible, within 60 s")
            await host.run(for: .seconds(100))
            #expect(try await status() == "locationUnavailable", "about 110 s after, past the 60 s window")
            let unavailable = try await host.waitFor("location.unavailable")
            #expect(unavailable.string("why") == "notInUse")
            let detail = unavailable.string("detail") ?? ""
            #expect(detail.contains("longer than the 1 min in-use window"), "\(detail)")
        }
    }

    @Test(
        "a significant location change reloads the widget free of budget, when it is next visible, with a location",
        arguments: Backend.tested)
    func significantChange(_ backend: Backend) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-route-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let route = dir.appendingPathComponent("move.csv").path
        // Home, then 4.5 km away at 10 min.
        try "seconds,latitude,longitude\n0,37.3688,-122.0363\n600,37.3349,-122.0090\n".write(
            toFile: route, atomically: true, encoding: .utf8)
        try await withHost(
            on: backend, apps: [.nearby],
            {
                $0.clock = .virtual
                $0.location.position = .route(try! RouteFile.load(route))
                $0.visibility = .periodic(every: .seconds(3600), for: .seconds(60))
                $0.budgetOverrides.idle = .seconds(7200)
            }
        ) { host in
            await host.start()
            await host.run(for: .seconds(2 * 3600 - 60))
            let events = await host.events()
            let change = try #require(events.first { $0.kind == .locationSignificantChange })
            // Busy time (real activations) moves a virtual clock in real time: allow a few seconds.
            #expect(abs(change.t - 600_000) < 10_000, "at the route's second point, not \(change.t)")
            #expect(change.string("deliveredWhen") == "nextVisible")
            #expect((change.double("meters") ?? 0) > 4000)
            let reload = try #require(events.first { $0.kind == .reloadRequested && $0.string("reason") == "significantLocationChange" })
            #expect(reload.t >= 3_600_000 && reload.t < 3_630_000, "when next visible (1 h), not \(reload.t)")
            let delivered = try #require(events.first { $0.kind == .locationDelivered && $0.t >= reload.t })
            #expect(delivered.double("latitude") == 37.3349)
            #expect(events.filter { $0.kind == .reloadRequested && $0.string("reason") == "significantLocationChange" }.count == 1)
        }
    }

    @Test(
        "one app, two widget extensions, only one with NSWidgetWantsLocation: only that one is asked and gets location",
        arguments: Backend.tested)
    func multipleExtensions(_ backend: Backend) async throws {
        try await withHost(on: backend, apps: [.commute]) { host in
            await host.start()
            let delivered = try await host.waitFor("location.delivered")
            #expect(delivered.bundle == "com.example.commute.nearby")
            let refused = try await host.waitFor("location.unavailable")
            #expect(refused.bundle == "com.example.commute.timetable")
            #expect(refused.string("why") == "keyMissing")
            #expect(refused.string("error") == "denied")
            #expect(refused.string("detail")?.contains("CommuteTimetable.appex/Info.plist does not set NSWidgetWantsLocation") == true)
            let timetable = try await host.waitFor("timeline") { $0.bundle == "com.example.commute.timetable" }
            guard case .array(let entries)? = timetable["entries"]?.resolved else { Issue.record("no entries"); return }
            #expect(entries[0]["located"] == .bool(false))
            #expect(entries[0]["authorizedForWidgetUpdates"] == .bool(false))
            #expect(entries[0]["locationError"] == .int(1), "CLError.denied")
            let prompts = await host.events().filter { $0.kind == .locationPrompt }
            #expect(prompts.map(\.bundle) == ["com.example.commute.nearby"])
        }
    }
}

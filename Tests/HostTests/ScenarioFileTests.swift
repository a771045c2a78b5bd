import Foundation
import Testing

@testable import SandglassHost

/// Scenario files: the shipped ones load; mistakes are refused naming file and key;
/// expectations count events, with paths into their JSON.
@Suite("Scenario files")
struct ScenarioFileTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/Scenarios").path

    private func scenario(_ json: String) throws -> (String, () -> Void) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-scenario-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("s.json").path
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return (path, { try? FileManager.default.removeItem(at: dir) })
    }

    @Test("the six shipped scenarios load, each with an app, a duration on the virtual clock and expectations")
    func shipped() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory).filter { $0.hasSuffix(".json") }.sorted()
        #expect(
            names == [
                "app-authorization-changed.json", "extended-when-added.json", "multiple-extensions.json",
                "not-extended.json", "pages-often-and-seldom.json", "widget-approval-changed.json"
            ])
        for name in names {
            let s = try Scenario.load(Self.directory + "/" + name)
            #expect(s.app != nil && s.duration != nil && s.clock == .virtual && !s.expectations.isEmpty, "\(name)")
        }
        let changed = try Scenario.load(Self.directory + "/app-authorization-changed.json")
        #expect(changed.changes.map(\.at) == [.seconds(86_400), .seconds(172_800)])
        #expect(changed.changes.map(\.authorization) == [.denied, .always])
        let pages = try Scenario.load(Self.directory + "/pages-often-and-seldom.json")
        #expect(pages.visibility == .often && pages.changes.first?.visibility == .seldom)
        guard case .route(let route) = pages.location.position else { Issue.record("no route"); return }
        #expect(route.repeats && route.points.count == 10)
    }

    @Test("apply sets the configuration's location, visibility, changes and clock")
    func apply() throws {
        let (path, cleanUp) = try scenario(
            #"{"authorization": "always", "widgetLocation": "declined", "visibility": {"every": "1h", "for": "1m"}, "position": {"latitude": 1, "longitude": 2}, "inUseWindow": "5m", "significantChangeMeters": 250, "clock": "virtual", "changes": [{"at": "2h", "visibility": "never"}, {"at": "1h", "position": "3,4"}]}"#
        )
        defer { cleanUp() }
        var configuration = HostConfiguration(dataDirectory: "/tmp/unused")
        try Scenario.load(path).apply(to: &configuration)
        #expect(configuration.location.authorization == .always)
        #expect(configuration.location.widgetApproval == .declined)
        #expect(configuration.location.position == .fixed(GeoCoordinate(latitude: 1, longitude: 2)))
        #expect(configuration.location.inUseWindow == .seconds(300))
        #expect(configuration.location.significantChangeMeters == 250)
        #expect(configuration.visibility == .periodic(every: .seconds(3600), for: .seconds(60)))
        #expect(configuration.clock == .virtual)
        #expect(configuration.changes.map(\.at) == [.seconds(3600), .seconds(7200)], "sorted by time")
    }

    @Test("configurations: each widget's intent parameters, as a JSON object; anything else refused naming the widget")
    func configurations() throws {
        let (path, cleanUp) = try scenario(
            #"{"configurations": {"Leg": {"runner": "amy", "leg": 3}, "com.example.relay.widget/Hero": {}}}"#)
        defer { cleanUp() }
        var configuration = HostConfiguration(dataDirectory: "/tmp/unused")
        try Scenario.load(path).apply(to: &configuration)
        #expect(configuration.widgetConfigurations == ["Leg": #"{"leg":3,"runner":"amy"}"#, "com.example.relay.widget/Hero": "{}"])
        let (bad, cleanUpBad) = try scenario(#"{"configurations": {"Leg": "amy"}}"#)
        defer { cleanUpBad() }
        #expect(throws: ScenarioError.self) { _ = try Scenario.load(bad) }
        do { _ = try Scenario.load(bad) } catch { #expect("\(error)".hasPrefix("s.json: configurations.Leg must be an object")) }
    }

    @Test("mistakes are refused with the file and the key path named")
    func refusals() throws {
        let cases: [(String, String)] = [
            (#"{"autorization": "always"}"#, "s.json: autorization is not a scenario key here"),
            (
                #"{"authorization": "sometimes"}"#,
                "s.json: authorization is \"sometimes\"; expected one of notDetermined, denied, restricted, whenInUse, always"
            ),
            (
                #"{"changes": [{"at": "1d", "widgetLocation": "yes"}]}"#,
                "s.json: changes[0].widgetLocation is \"yes\"; expected extended or declined"
            ),
            (#"{"changes": [{"at": "soon", "authorization": "denied"}]}"#, "s.json: changes[0].at is \"soon\""),
            (#"{"changes": [{"authorization": "denied"}]}"#, "s.json: changes[0].at is missing"),
            (#"{"changes": [{"at": "1h"}]}"#, "s.json: changes[0] changes nothing"),
            (#"{"visibility": {"every": "1m", "for": "1h"}}"#, "s.json: visibility needs every and for, with 0 < for < every"),
            (#"{"position": "200,0"}"#, "s.json: position is \"200,0\""),
            (#"{"route": "missing.gpx"}"#, "s.json: route names a route that cannot be used"),
            (#"{"expect": [{"event": "x"}]}"#, "s.json: expect[0] needs atLeast or atMost"),
            (#"{"expect": [{"event": "x", "atLeast": true}]}"#, "s.json: expect[0].atLeast must be a whole number"),
            (#"[1, 2]"#, "s.json: must hold a JSON object"),
            (#"{"duration": "#, "s.json: is not valid JSON")
        ]
        for (json, expected) in cases {
            let (path, cleanUp) = try scenario(json)
            defer { cleanUp() }
            do {
                _ = try Scenario.load(path)
                Issue.record("accepted: \(json)")
            } catch {
                #expect("\(error)".hasPrefix(expected), "\(error)")
            }
        }
    }

    @Test("expectations count matching events in a window, with paths into the JSON")
    func expectations() {
        let events = [
            HostEvent(
                t: 1000, name: "timeline", fields: [("bundle", "a"), ("entries", .array([.raw(#"{"status":"located","n":1,"ok":true}"#)]))]),
            HostEvent(
                t: 90_000_000, name: "timeline", fields: [("bundle", "a"), ("entries", .array([.raw(#"{"status":"notAuthorized"}"#)]))]),
            HostEvent(t: 2000, name: "location.delivered", fields: [("bundle", "a")])
        ]
        #expect(ScenarioExpectation(event: "timeline", fields: ["entries.0.status": "located"], atLeast: 1).count(in: events) == 1)
        #expect(
            ScenarioExpectation(event: "timeline", fields: ["entries.0.n": "1", "entries.0.ok": "true"], atLeast: 1).count(in: events) == 1)
        #expect(ScenarioExpectation(event: "timeline", fields: ["entries.1.status": "located"]).count(in: events) == 0)
        let late = ScenarioExpectation(event: "timeline", atLeast: 2, from: .seconds(60))
        #expect(late.count(in: events) == 1)
        #expect(late.failure(in: events) == "at least 2 timeline from 1m: saw 1")
        #expect(ScenarioExpectation(event: "location.delivered", atMost: 0, until: .seconds(1)).failure(in: events) == nil)
        #expect(ScenarioExpectation(event: "location.delivered", atMost: 0, until: .seconds(3)).failure(in: events) != nil)
    }
}

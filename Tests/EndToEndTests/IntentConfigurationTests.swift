import Foundation
import SandglassHost
import Testing

/// A configurable widget (`IntentConfiguration` with a custom `INIntent`, Relay.app's "Leg")
/// in a real extension or embedded: its configuration is set from the run and edited through the host API,
/// the provider gets the intent with those parameters, and `WidgetCenter.getCurrentConfigurations`
/// answers with them.
@Suite("IntentConfiguration widgets", .serialized)
struct IntentConfigurationTests {
    static let relay = "com.example.relay.widget"

    private func legTimeline(
        _ host: ExtensionHost, after: Int = 0, where predicate: @escaping @Sendable ([String: JSONValue]) -> Bool = { _ in true }
    ) async throws -> [String: JSONValue] {
        let event = try await host.waitFor("timeline", timeout: .seconds(60)) { event in
            guard event.bundle == Self.relay, event.string("kind") == "Leg",
                case .array(let entries)? = event["entries"]?.resolved, case .object(let fields)? = entries.first
            else { return false }
            return predicate(Dictionary(fields, uniquingKeysWith: { a, _ in a }))
        }
        guard case .array(let entries)? = event["entries"]?.resolved, case .object(let fields)? = entries.first else { return [:] }
        return Dictionary(fields, uniquingKeysWith: { a, _ in a })
    }

    @Test("the run's configuration reaches the provider as the intent's parameters", arguments: Backend.tested)
    func configured(_ backend: Backend) async throws {
        try await withHost(
            on: backend, apps: [.relay],
            { $0.widgetConfigurations["Leg"] = #"{"runner": {"identifier": "amy", "displayString": "Amy"}, "leg": 3, "unit": 2}"# }
        ) { host in
            await host.start()
            let entry = try await legTimeline(host)
            #expect(entry["runner"] == .string("Amy"))
            #expect(entry["leg"] == .int(3))
            #expect(entry["unit"] == .string("mi"))
            // getCurrentConfigurations, from inside getTimeline: the app's widgets, the Leg one with its intent.
            guard case .array(let widgets)? = entry["configuredWidgets"] else { Issue.record("no configuredWidgets"); return }
            #expect(
                Set(widgets) == [.string("Leg/systemSmall: amy"), .string("RelayStatus/systemSmall: -"), .string("Probe/systemSmall: -")])
        }
    }

    @Test(
        "unconfigured: the intent's defaults; edited through the host API: reloaded at once, free, with the new parameters",
        arguments: Backend.tested)
    func edited(_ backend: Backend) async throws {
        try await withHost(on: backend, apps: [.relay]) { host in
            await host.start()
            let first = try await legTimeline(host)
            #expect(first["runner"] == .string("no runner chosen"))
            #expect(first["leg"] == nil)
            #expect(first["unit"] == .string("km"))
            let matched = try await host.setConfiguration(#"{"runner": "bo", "leg": 5}"#, widget: "Leg")
            #expect(matched == 1)
            let edited = try await legTimeline(host) { $0["runner"] == .string("bo") }
            #expect(edited["leg"] == .int(5))
            let reload = try await host.waitFor("reload.requested") {
                $0.string("kind") == "Leg" && $0.string("reason") == "configurationChanged"
            }
            #expect(reload.string("exempt") == "configurationChanged")
            let configured = await host.currentConfigurations(app: "com.example.relay")
            #expect(configured["com.example.relay.widget/Leg/systemSmall"] == .some(#"{"runner": "bo", "leg": 5}"#))
        }
    }

    @Test(
        "a parameter the intent does not have, or a value that does not fit: a warning naming it, the default kept",
        arguments: Backend.tested)
    func mismatched(_ backend: Backend) async throws {
        try await withHost(
            on: backend, apps: [.relay], { $0.widgetConfigurations["com.example.relay.widget/Leg"] = #"{"runnr": "amy", "leg": "three"}"# }
        ) { host in
            await host.start()
            let entry = try await legTimeline(host)
            #expect(entry["runner"] == .string("no runner chosen"))
            #expect(entry["leg"] == nil)
            let warnings = await host.events().filter { $0.kind == .log && $0.string("level") == "warning" }.compactMap {
                $0.string("message")
            }
            #expect(warnings.contains { $0.contains("'runnr'") && $0.contains("SelectLegIntent") && $0.contains("runner") })
            #expect(warnings.contains { $0.contains("'leg'") })
        }
    }

    @Test("a configuration that is not a JSON object is refused before the run, naming the widget")
    func refused() async throws {
        var configuration = HostConfiguration.temporary()
        configuration.widgetConfigurations["Leg"] = "[1, 2]"
        defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }
        do {
            let host = try await ExtensionHost(configuration)
            await host.shutdown()
            Issue.record("the host started")
        } catch {
            #expect(error is HostSetupError)
            #expect("\(error)".contains("widget 'Leg'") && "\(error)".contains("not an object"))
        }
    }
}

import AppIntents
import Foundation
import Intents
import SandglassIPC
import SwiftUI
import Testing

@testable import WidgetKit

// Configurable widgets served in-process: a SiriKit custom intent and two app intents (one
// Decodable, one with @INParameter), each handed the configuration the host sends before the
// request; WidgetCenter.getCurrentConfigurations makes each widget's intent from the reply.

final class TeamIntent: INIntent {
    @INParameter var team: String?
}

struct TeamEntry: TimelineEntry, Codable {
    let date: Date
    let team: String
}

struct TeamProvider: IntentTimelineProvider {
    func placeholder(in context: Context) -> TeamEntry { TeamEntry(date: referenceDate, team: "?") }

    func getSnapshot(for configuration: TeamIntent, in context: Context, completion: @escaping (TeamEntry) -> Void) {
        completion(TeamEntry(date: referenceDate, team: configuration.team ?? "none"))
    }

    func getTimeline(for configuration: TeamIntent, in context: Context, completion: @escaping (Timeline<TeamEntry>) -> Void) {
        completion(Timeline(entries: [TeamEntry(date: referenceDate, team: configuration.team ?? "none")], policy: .never))
    }
}

struct ColorIntent: WidgetConfigurationIntent, Decodable {
    var color = "blue"
}

struct SizeIntent: WidgetConfigurationIntent {
    @INParameter var size: Int = 1
}

/// As Xcode's widget template writes it.
struct FavoriteIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource { "Configuration" }
    static var description: IntentDescription { "This is an example widget." }

    @Parameter(title: "Favorite Emoji", default: "😃")
    var favoriteEmoji: String

    @Parameter(title: "Count")
    var count: Int?
}

struct FavoriteProvider: AppIntentTimelineProvider {
    func placeholder(in context: Context) -> TeamEntry { TeamEntry(date: referenceDate, team: "?") }
    func snapshot(for configuration: FavoriteIntent, in context: Context) async -> TeamEntry {
        TeamEntry(date: referenceDate, team: configuration.favoriteEmoji)
    }
    func timeline(for configuration: FavoriteIntent, in context: Context) async -> Timeline<TeamEntry> {
        Timeline(
            entries: [TeamEntry(date: referenceDate, team: "\(configuration.favoriteEmoji) × \(configuration.count ?? 0)")], policy: .never)
    }
}

struct FavoriteWidget: Widget {
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "Favorite", intent: FavoriteIntent.self, provider: FavoriteProvider()) { entry in Text(entry.team) }
    }
}

struct ColorProvider: AppIntentTimelineProvider {
    func placeholder(in context: Context) -> TeamEntry { TeamEntry(date: referenceDate, team: "?") }
    func snapshot(for configuration: ColorIntent, in context: Context) async -> TeamEntry {
        TeamEntry(date: referenceDate, team: configuration.color)
    }
    func timeline(for configuration: ColorIntent, in context: Context) async -> Timeline<TeamEntry> {
        Timeline(entries: [TeamEntry(date: referenceDate, team: configuration.color)], policy: .never)
    }
}

struct SizeProvider: AppIntentTimelineProvider {
    func placeholder(in context: Context) -> TeamEntry { TeamEntry(date: referenceDate, team: "?") }
    func snapshot(for configuration: SizeIntent, in context: Context) async -> TeamEntry {
        TeamEntry(date: referenceDate, team: "\(configuration.size)")
    }
    func timeline(for configuration: SizeIntent, in context: Context) async -> Timeline<TeamEntry> {
        Timeline(entries: [TeamEntry(date: referenceDate, team: "size \(configuration.size)")], policy: .never)
    }
}

struct ConfigurableBundle: WidgetBundle {
    var body: some Widget {
        TeamWidget()
        ColorWidget()
        SizeWidget()
        FavoriteWidget()
    }
}

struct TeamWidget: Widget {
    var body: some WidgetConfiguration {
        IntentConfiguration(kind: "Team", intent: TeamIntent.self, provider: TeamProvider()) { entry in Text(entry.team) }
    }
}

struct ColorWidget: Widget {
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "Color", intent: ColorIntent.self, provider: ColorProvider()) { entry in Text(entry.team) }
    }
}

struct SizeWidget: Widget {
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "Size", intent: SizeIntent.self, provider: SizeProvider()) { entry in Text(entry.team) }
    }
}

extension RuntimeTests {
    @Suite("widget configurations")
    struct ConfigurationTests {
        /// The text of the first entry of a timeline for `kind`, configured with `json` (none when nil).
        private func timelineText(_ harness: RuntimeHarness, _ kind: String, _ json: String?) throws -> String? {
            let id = harness.makeID()
            let activation = RuntimeHarness.activation(kind, family: "systemSmall")
            if let json {
                try harness.host.send(
                    .widgetConfiguration(id, WidgetConfigurationPayload(kind: kind, family: "systemSmall", intent: Array(json.utf8))))
            }
            try harness.host.send(.timelineRequest(id, activation))
            guard case .timelineReply(let replyID, let timeline) = try harness.host.receive(), replyID == id else { return nil }
            return timeline.entries.first?.text ?? nil
        }

        @Test("each kind of configurable provider gets the configuration sent before its request, else its defaults")
        func configured() async throws {
            let harness = try await RuntimeHarness.serving(ConfigurableBundle.self)
            try harness.handshake()
            #expect(try timelineText(harness, "Team", nil) == "none")
            #expect(try timelineText(harness, "Team", #"{"team": "tigers"}"#) == "tigers")
            #expect(try timelineText(harness, "Team", nil) == "none", "a configuration is for its request only")
            #expect(try timelineText(harness, "Color", nil) == "blue")
            #expect(try timelineText(harness, "Color", #"{"color": "red"}"#) == "red")
            #expect(try timelineText(harness, "Size", #"{"size": 3}"#) == "size 3")
            #expect(try timelineText(harness, "Favorite", nil) == "😃 × 0")
            #expect(try timelineText(harness, "Favorite", #"{"favoriteEmoji": "🐙", "count": 2}"#) == "🐙 × 2")
            _ = harness.finish()
        }

        @Test("getCurrentConfigurations asks the host and makes each widget's intent from its configuration")
        func currentConfigurations() async throws {
            let harness = try await RuntimeHarness.serving(ConfigurableBundle.self, installAsCurrent: true)
            try harness.handshake()
            let task = Task(executorPreference: offThePool) { try await WidgetCenter.shared.currentConfigurations() }
            guard case .currentConfigurationsRequest(let id) = try harness.host.receive() else {
                Issue.record("no currentConfigurationsRequest")
                return
            }
            try harness.host.send(
                .currentConfigurations(
                    id,
                    [
                        WidgetConfigurationPayload(kind: "Team", family: "systemSmall", intent: Array(#"{"team": "lions"}"#.utf8)),
                        WidgetConfigurationPayload(kind: "Color", family: "systemMedium", intent: Array(#"{"color": "green"}"#.utf8)),
                        WidgetConfigurationPayload(kind: "Elsewhere", family: "systemLarge", intent: [])
                    ]))
            let widgets = try await task.value
            #expect(widgets.map(\.kind) == ["Team", "Color", "Elsewhere"])
            #expect(widgets.map(\.family) == [.systemSmall, .systemMedium, .systemLarge])
            #expect((widgets[0].configuration as? TeamIntent)?.team == "lions")
            #expect(widgets[1].configuration == nil)
            #expect(widgets[1].widgetConfigurationIntent(of: ColorIntent.self)?.color == "green")
            #expect(widgets[2].configuration == nil)
            _ = harness.finish()
        }
    }
}

/// Its timeline's entry lists the widgets `getCurrentConfigurations` answered, asked from `getTimeline`.
struct AskingProvider: TimelineProvider {
    func placeholder(in context: Context) -> TeamEntry { TeamEntry(date: referenceDate, team: "?") }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (TeamEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<TeamEntry>) -> Void) {
        WidgetCenter.shared.getCurrentConfigurations { result in
            let widgets = (try? result.get())?.map { "\($0.kind)/\($0.family)" } ?? ["failed: \(result)"]
            completion(Timeline(entries: [TeamEntry(date: referenceDate, team: widgets.joined(separator: ","))], policy: .never))
        }
    }
}

struct AskingWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Asking", provider: AskingProvider()) { entry in Text(entry.team) }
    }
}

extension RuntimeTests.ConfigurationTests {
    @Test("an in-process runtime beside the process's: its provider's getCurrentConfigurations asks its own host, and its reply is its own")
    func inProcessRuntimeAsksItsOwnHost() async throws {
        let harness = try await RuntimeHarness.serving(ConfigurableBundle.self, installAsCurrent: true)
        try harness.handshake()

        // A second runtime in this process, as the host's embedded backend runs one.
        let (other, otherFD) = try HostEnd.makePair()
        defer { other.close() }
        let widgets = await MainActor.run { InProcessRuntime.Widgets(widget: AskingWidget.self) }
        let inProcess = InProcessRuntime(widgets: widgets, bundleIdentifier: "com.example.other", environment: [:], fd: otherFD) { _ in }
        inProcess.start()
        _ = try other.receive() // hello
        try other.send(.welcome(harness.welcome))
        try other.send(.timelineRequest(RequestID(1), RuntimeHarness.activation("Asking", family: "systemSmall")))
        let request = try other.expect("currentConfigurationsRequest") { message -> RequestID? in
            if case .currentConfigurationsRequest(let id) = message { return id }
            return nil
        }
        // The same id answered by the process's host first: not this runtime's reply.
        try harness.host.send(
            .currentConfigurations(request, [WidgetConfigurationPayload(kind: "Team", family: "systemLarge", intent: [])]))
        try other.send(.currentConfigurations(request, [WidgetConfigurationPayload(kind: "Asking", family: "systemSmall", intent: [])]))
        let team = try other.expect("timelineReply") { message -> String?? in
            guard case .timelineReply(RequestID(1), let timeline) = message, let entry = timeline.entries.first else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(entry.json)) as? [String: Any])?["team"] as? String
        }
        #expect(team == "Asking/systemSmall")
        try harness.host.expectNothingMore()
        _ = harness.finish()
    }
}

import Foundation
import Intents
import SandglassEmbedded
import SwiftUI
import WidgetKit
import os

/// Relay.app run embedded (`Examples/RelayWidget`, `Examples/GroupProbeWidget`): the Relay
/// widget's RelayStatus (`Logger`, the app group's defaults and container) and Leg (an
/// `IntentConfiguration` with a custom `INIntent`, `os_log`, `getCurrentConfigurations`), and
/// the Probe extension. The copies read the group's defaults through
/// ``EmbeddedExtension/groupDefaults(_:)`` where the examples use `UserDefaults(suiteName:)` (a
/// suite of the test process), keep the widget's read count in its container, and read the
/// run clock and the host's variables through ``EmbeddedExtension``.
extension BackendApp {
    static let relay = BackendApp(name: "Relay.app") {
        [
            "com.example.relay.widget": .init(bundle: EmbeddedRelayWidgets.self),
            "com.example.relay.probe": .init(widget: EmbeddedGroupProbeWidget.self)
        ]
    }
}

/// What the Relay app and its widget share.
enum EmbeddedRelayShared {
    static let appGroup = "group.com.example.relay"
    static let relayDataKey = "relayData"
    static let widgetReadsKey = "widgetReads"
    static let teamCodeKey = "teamCode"
    static let rosterPath = "Library/Caches/roster.txt"

    static var defaults: [String: Any]? { EmbeddedExtension.groupDefaults(appGroup) }

    static var container: URL? {
        FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroup)
    }
}

struct EmbeddedRelayWidgets: WidgetBundle {
    var body: some Widget {
        EmbeddedRelayStatusWidget()
        EmbeddedLegWidget()
    }
}

// MARK: RelayStatus

struct EmbeddedRelayEntry: TimelineEntry, Codable {
    let date: Date
    let relay: String
    let roster: String?
    let reads: Int
    let undeclaredGroupIsNil: Bool
}

struct EmbeddedRelayProvider: TimelineProvider {
    private let logger = Logger(subsystem: "com.example.relay.widget", category: "timeline")

    func placeholder(in context: Context) -> EmbeddedRelayEntry {
        EmbeddedRelayEntry(date: EmbeddedExtension.now, relay: "Relay", roster: nil, reads: 0, undeclaredGroupIsNil: true)
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (EmbeddedRelayEntry) -> Void) {
        completion(context.isPreview ? placeholder(in: context) : currentEntry(countingRead: false))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<EmbeddedRelayEntry>) -> Void) {
        let entry = currentEntry(countingRead: true)
        logger.info("relay data for \(context.family.description, privacy: .public): \(entry.relay, privacy: .public)")
        logger.debug("roster: \(entry.roster ?? "none")")
        if let team = EmbeddedRelayShared.defaults?[EmbeddedRelayShared.teamCodeKey] as? String {
            logger.log(level: .debug, "team code \(team, privacy: .sensitive), team \(team, privacy: .private(mask: .hash))")
        }
        logger.notice("reads so far: \(entry.reads, format: .decimal(minDigits: 3), align: .right(columns: 5))")
        completion(Timeline(entries: [entry], policy: .never))
    }

    private func currentEntry(countingRead: Bool) -> EmbeddedRelayEntry {
        let relay = EmbeddedRelayShared.defaults?[EmbeddedRelayShared.relayDataKey] as? String ?? "no relay data yet"
        let readsFile = URL(
            fileURLWithPath: (EmbeddedExtension.container ?? NSTemporaryDirectory()) + "/" + EmbeddedRelayShared.widgetReadsKey)
        var reads = (try? String(contentsOf: readsFile, encoding: .utf8)).flatMap { Int($0) } ?? 0
        if countingRead {
            reads += 1
            try? String(reads).write(to: readsFile, atomically: true, encoding: .utf8)
        }
        var roster: String?
        if let url = EmbeddedRelayShared.container?.appendingPathComponent(EmbeddedRelayShared.rosterPath) {
            roster = try? String(contentsOf: url, encoding: .utf8)
        } else {
            logger.error("no container for \(EmbeddedRelayShared.appGroup, privacy: .public): is the group in the entitlements?")
        }
        let other = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.other")
        return EmbeddedRelayEntry(
            date: EmbeddedExtension.now, relay: relay, roster: roster, reads: reads, undeclaredGroupIsNil: other == nil)
    }
}

struct EmbeddedRelayStatusWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "RelayStatus", provider: EmbeddedRelayProvider()) { entry in
            VStack(alignment: .leading) {
                Text("\(entry.relay) · read \(entry.reads)×")
                    .font(.headline)
                Spacer()
                Text(entry.date, style: .time)
                    .font(.caption)
                    .foregroundStyle(.secondary)
            }
            .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Relay")
        .description("The relay, as the app last saw it.")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}

// MARK: Leg

/// What Xcode generates from the .intentdefinition file, as the example writes it.
final class EmbeddedSelectLegIntent: INIntent, @unchecked Sendable {
    @INParameter var runner: EmbeddedRunner?
    @INParameter var leg: NSNumber?
    @INParameter var unit: EmbeddedDistanceUnit = .kilometres
}

final class EmbeddedRunner: INObject, @unchecked Sendable {}

enum EmbeddedDistanceUnit: Int, Codable {
    case unknown = 0
    case kilometres = 1
    case miles = 2
}

struct EmbeddedLegEntry: TimelineEntry, Codable {
    let date: Date
    let runner: String
    let leg: Int?
    let unit: String
    let configuredWidgets: [String]
}

struct EmbeddedLegProvider: IntentTimelineProvider {
    private let log = OSLog(subsystem: "com.example.relay.widget", category: "legs")

    func placeholder(in context: Context) -> EmbeddedLegEntry {
        EmbeddedLegEntry(date: EmbeddedExtension.now, runner: "Runner", leg: 1, unit: "km", configuredWidgets: [])
    }

    func getSnapshot(
        for configuration: EmbeddedSelectLegIntent, in context: Context, completion: @escaping @Sendable (EmbeddedLegEntry) -> Void
    ) {
        completion(entry(for: configuration, widgets: []))
    }

    func getTimeline(
        for configuration: EmbeddedSelectLegIntent, in context: Context,
        completion: @escaping @Sendable (Timeline<EmbeddedLegEntry>) -> Void
    ) {
        os_log(
            "timeline for runner %{public}@, leg %d", log: log, type: .info,
            configuration.runner?.displayString ?? "none", configuration.leg?.intValue ?? 0)
        WidgetCenter.shared.getCurrentConfigurations { result in
            let widgets =
                (try? result.get())?.map { info in
                    "\(info.kind)/\(info.family): \((info.configuration as? EmbeddedSelectLegIntent)?.runner?.identifier ?? "-")"
                } ?? []
            completion(Timeline(entries: [entry(for: configuration, widgets: widgets)], policy: .never))
        }
    }

    func recommendations() -> [IntentRecommendation<EmbeddedSelectLegIntent>] {
        let intent = EmbeddedSelectLegIntent()
        intent.runner = EmbeddedRunner(identifier: "amy", display: "Amy")
        return [IntentRecommendation(intent: intent, description: "Amy's leg")]
    }

    private func entry(for configuration: EmbeddedSelectLegIntent, widgets: [String]) -> EmbeddedLegEntry {
        EmbeddedLegEntry(
            date: EmbeddedExtension.now, runner: configuration.runner?.displayString ?? "no runner chosen",
            leg: configuration.leg?.intValue, unit: configuration.unit == .miles ? "mi" : "km",
            configuredWidgets: widgets)
    }
}

struct EmbeddedLegWidget: Widget {
    var body: some WidgetConfiguration {
        IntentConfiguration(kind: "Leg", intent: EmbeddedSelectLegIntent.self, provider: EmbeddedLegProvider()) { entry in
            VStack(alignment: .leading, spacing: 4) {
                Label("Leg \(entry.leg.map(String.init) ?? "?")", systemImage: "figure.run")
                    .font(.caption)
                    .foregroundStyle(.secondary)
                Text("\(entry.runner) · leg \(entry.leg.map(String.init) ?? "?") (\(entry.unit))")
                    .font(.headline)
                    .lineLimit(2)
            }
            .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Leg")
        .description("A runner's leg of the relay.")
        .supportedFamilies([.systemSmall])
    }
}

// MARK: Probe

struct EmbeddedProbeEntry: TimelineEntry, Codable {
    let date: Date
    let relayData: String?
    let groupKeys: [String]
    let container: String?
    let listing: String
    let defaultsFile: String
}

/// What the Probe extension reaches of the group: its defaults, its container, and — when the
/// host names one in PROBE_TARGET — whether another path opens.
struct EmbeddedProbeProvider: TimelineProvider {
    let group = "group.com.example.relay"

    func placeholder(in context: Context) -> EmbeddedProbeEntry {
        EmbeddedProbeEntry(date: EmbeddedExtension.now, relayData: nil, groupKeys: [], container: nil, listing: "", defaultsFile: "")
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (EmbeddedProbeEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<EmbeddedProbeEntry>) -> Void) {
        let defaults = EmbeddedExtension.groupDefaults(group)
        var listing = "not asked"
        var defaultsFile = "not asked"
        if let target = EmbeddedExtension.environment("PROBE_TARGET") {
            do {
                listing = "listed: " + (try FileManager.default.contentsOfDirectory(atPath: target)).joined(separator: ",")
            } catch {
                listing = "denied: \(String(cString: strerror(errno))) (errno \(errno))"
            }
            let fd = open(target + "/Library/Preferences/\(group).plist", O_RDONLY)
            defaultsFile = fd >= 0 ? "opened" : "denied: \(String(cString: strerror(errno))) (errno \(errno))"
            if fd >= 0 { close(fd) }
        }
        let keys = defaults?.keys.filter { ["relayData", "widgetReads", "teamCode"].contains($0) }.sorted() ?? []
        let entry = EmbeddedProbeEntry(
            date: EmbeddedExtension.now, relayData: defaults?["relayData"] as? String, groupKeys: keys,
            container: FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group)?.path,
            listing: listing, defaultsFile: defaultsFile)
        completion(Timeline(entries: [entry], policy: .never))
    }
}

struct EmbeddedGroupProbeWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Probe", provider: EmbeddedProbeProvider()) { entry in
            Text("\(entry.relayData ?? "no relay data") · \(entry.listing)")
        }
        .supportedFamilies([.systemSmall])
    }
}

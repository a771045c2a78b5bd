//
//  RelayStatusWidget.swift
//  RelayWidget
//
//  A static widget showing what the app relays through its app group: a value in the group's
//  UserDefaults suite and a file in the group's container, logged with Logger.
//

import OSLog
import SwiftUI
import WidgetKit

struct RelayEntry: TimelineEntry, Codable {
    let date: Date
    /// The app's relay data, from the group's defaults.
    let relay: String
    /// The roster file the app wrote into the group's container, if any.
    let roster: String?
    /// How many times the widget has read the relay data (kept in the group's defaults).
    let reads: Int
    /// A group the widget's entitlements do not declare gives no container, as on iOS.
    let undeclaredGroupIsNil: Bool
}

struct RelayProvider: TimelineProvider {
    private let logger = Logger(subsystem: "com.example.relay.widget", category: "timeline")

    func placeholder(in context: Context) -> RelayEntry {
        RelayEntry(date: Date(), relay: "Relay", roster: nil, reads: 0, undeclaredGroupIsNil: true)
    }

    func getSnapshot(in context: Context, completion: @escaping (RelayEntry) -> Void) {
        completion(context.isPreview ? placeholder(in: context) : currentEntry(countingRead: false))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<RelayEntry>) -> Void) {
        let entry = currentEntry(countingRead: true)
        logger.info("relay data for \(context.family.description, privacy: .public): \(entry.relay, privacy: .public)")
        logger.debug("roster: \(entry.roster ?? "none")")
        if let team = RelayShared.defaults?.string(forKey: RelayShared.teamCodeKey) {
            logger.log(level: .debug, "team code \(team, privacy: .sensitive), team \(team, privacy: .private(mask: .hash))")
        }
        logger.notice("reads so far: \(entry.reads, format: .decimal(minDigits: 3), align: .right(columns: 5))")
        completion(Timeline(entries: [entry], policy: .never))
    }

    private func currentEntry(countingRead: Bool) -> RelayEntry {
        let defaults = RelayShared.defaults
        let relay = defaults?.string(forKey: RelayShared.relayDataKey) ?? "no relay data yet"
        var reads = defaults?.integer(forKey: RelayShared.widgetReadsKey) ?? 0
        if countingRead {
            reads += 1
            defaults?.set(reads, forKey: RelayShared.widgetReadsKey)
        }
        var roster: String?
        if let url = RelayShared.container?.appendingPathComponent(RelayShared.rosterPath) {
            roster = try? String(contentsOf: url, encoding: .utf8)
        } else {
            logger.error("no container for \(RelayShared.appGroup, privacy: .public): is the group in the entitlements?")
        }
        let other = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.other")
        return RelayEntry(date: Date(), relay: relay, roster: roster, reads: reads, undeclaredGroupIsNil: other == nil)
    }
}

struct RelayStatusWidget: Widget {
    let kind: String = "RelayStatus"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: RelayProvider()) { entry in
            RelayStatusView(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Relay")
        .description("The relay, as the app last saw it.")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}

struct RelayStatusView: View {
    let entry: RelayEntry

    var body: some View {
        VStack(alignment: .leading) {
            Text("\(entry.relay) · read \(entry.reads)×")
                .font(.headline)
            Spacer()
            Text(entry.date, style: .time)
                .font(.caption)
                .foregroundStyle(.secondary)
        }
    }
}

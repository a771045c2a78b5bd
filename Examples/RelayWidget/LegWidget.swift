//
//  LegWidget.swift
//  RelayWidget
//
//  A configurable widget (SiriKit intent, IntentConfiguration): the user picks a runner and a
//  leg. SelectLegIntent is what Xcode generates from the .intentdefinition file, written for
//  Linux: no @objc(…), and @INParameter where Xcode writes @NSManaged.
//

import Intents
import SwiftUI
import WidgetKit
import os

public class SelectLegIntent: INIntent {
    @INParameter public var runner: Runner?
    @INParameter public var leg: NSNumber?
    @INParameter public var unit: DistanceUnit = .kilometres
}

public class Runner: INObject {}

public enum DistanceUnit: Int, Codable {
    case unknown = 0
    case kilometres = 1
    case miles = 2
}

struct LegEntry: TimelineEntry, Codable {
    let date: Date
    let runner: String
    let leg: Int?
    let unit: String
    /// The app's widgets on screen, as WidgetCenter.getCurrentConfigurations tells them.
    let configuredWidgets: [String]
}

struct LegProvider: IntentTimelineProvider {
    private let log = OSLog(subsystem: "com.example.relay.widget", category: "legs")

    func placeholder(in context: Context) -> LegEntry {
        LegEntry(date: Date(), runner: "Runner", leg: 1, unit: "km", configuredWidgets: [])
    }

    func getSnapshot(for configuration: SelectLegIntent, in context: Context, completion: @escaping (LegEntry) -> Void) {
        completion(entry(for: configuration, widgets: []))
    }

    func getTimeline(for configuration: SelectLegIntent, in context: Context, completion: @escaping (Timeline<LegEntry>) -> Void) {
        os_log(
            "timeline for runner %{public}@, leg %d", log: log, type: .info,
            configuration.runner?.displayString ?? "none", configuration.leg?.intValue ?? 0)
        WidgetCenter.shared.getCurrentConfigurations { result in
            let widgets =
                (try? result.get())?.map { info in
                    "\(info.kind)/\(info.family): \((info.configuration as? SelectLegIntent)?.runner?.identifier ?? "-")"
                } ?? []
            completion(Timeline(entries: [entry(for: configuration, widgets: widgets)], policy: .never))
        }
    }

    func recommendations() -> [IntentRecommendation<SelectLegIntent>] {
        let intent = SelectLegIntent()
        intent.runner = Runner(identifier: "amy", display: "Amy")
        return [IntentRecommendation(intent: intent, description: "Amy's leg")]
    }

    private func entry(for configuration: SelectLegIntent, widgets: [String]) -> LegEntry {
        LegEntry(
            date: Date(), runner: configuration.runner?.displayString ?? "no runner chosen",
            leg: configuration.leg?.intValue, unit: configuration.unit == .miles ? "mi" : "km",
            configuredWidgets: widgets)
    }
}

struct LegWidget: Widget {
    let kind: String = "Leg"

    var body: some WidgetConfiguration {
        IntentConfiguration(kind: kind, intent: SelectLegIntent.self, provider: LegProvider()) { entry in
            LegView(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Leg")
        .description("A runner's leg of the relay.")
        .supportedFamilies([.systemSmall])
    }
}

struct LegView: View {
    let entry: LegEntry

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Label("Leg \(entry.leg.map(String.init) ?? "?")", systemImage: "figure.run")
                .font(.caption)
                .foregroundStyle(.secondary)
            Text("\(entry.runner) · leg \(entry.leg.map(String.init) ?? "?") (\(entry.unit))")
                .font(.headline)
                .lineLimit(2)
        }
    }
}

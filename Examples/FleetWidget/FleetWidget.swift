// A widget extension of ten kinds with mixed reload policies (FleetPlans.swift), for budgets
// and the benchmark: Fleet.app holds five copies of it under different bundle identifiers —
// fifty widgets in five processes.

import SwiftUI
import WidgetKit

struct FleetEntry: TimelineEntry, Codable {
    let date: Date
    let kind: String
    /// How many timelines this process has made for the kind.
    let serial: Int
}

/// Counts the timelines made per kind in this process.
final class Serials: @unchecked Sendable {
    static let shared = Serials()
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    func next(_ kind: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        counts[kind, default: 0] += 1
        return counts[kind]!
    }
}

struct FleetProvider<Plan: FleetPlan>: TimelineProvider {
    func placeholder(in context: Context) -> FleetEntry {
        FleetEntry(date: Date(), kind: Plan.kind, serial: 0)
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (FleetEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<FleetEntry>) -> Void) {
        let now = Date()
        let serial = Serials.shared.next(Plan.kind)
        let entries = Plan.entryMinutes.map { FleetEntry(date: now.addingTimeInterval(Double($0) * 60), kind: Plan.kind, serial: serial) }
        completion(Timeline(entries: entries, policy: Plan.policy(now: now)))
        if Plan.asksAgain {
            WidgetCenter.shared.reloadTimelines(ofKind: Plan.kind)
        }
    }
}

struct FleetWidget<Plan: FleetPlan>: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: Plan.kind, provider: FleetProvider<Plan>()) { entry in
            Text("\(entry.kind) #\(entry.serial)")
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName(Plan.kind)
        .description("A fleet widget that reloads as its plan says.")
        .supportedFamilies([.systemSmall])
    }
}

@main
struct FleetWidgets: WidgetBundle {
    var body: some Widget {
        FleetWidget<Eager>()
        FleetWidget<Quarterly>()
        FleetWidget<Hourly>()
        FleetWidget<Schedule>()
        FleetWidget<Single>()
        FleetWidget<Quarterday>()
        FleetWidget<Greedy>()
        FleetWidget<Stale>()
        FleetWidget<Relay>()
        FleetWidget<AppDriven>()
    }
}

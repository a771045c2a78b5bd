import Foundation
import SandglassEmbedded
import SwiftUI
import Synchronization
import WidgetKit

// The Fleet example (Examples/FleetWidget) run embedded: ten kinds with mixed reload policies,
// served by each of Fleet.app's five extensions. As in EmbeddedWidgets.swift, the providers read
// the run clock through `EmbeddedExtension.now` where the example reads `Date()`.

extension BackendApp {
    /// Fleet.app: five extensions (`com.example.fleet.alpha` … `echo`) serving the same ten
    /// widgets — fifty widgets.
    static let fleet = BackendApp(name: "Fleet.app") {
        Dictionary(
            uniqueKeysWithValues: EmbeddedFleet.extensions.map { ($0, InProcessRuntime.Widgets(bundle: EmbeddedFleet.Widgets.self)) })
    }
}

/// The Fleet example's widgets, run embedded; their plans are the example's own file
/// (`FleetPlans.swift`, linked here from `Examples/FleetWidget`).
enum EmbeddedFleet {
    /// The bundle identifiers of Fleet.app's extensions.
    static let extensions = ["alpha", "bravo", "charlie", "delta", "echo"].map { "com.example.fleet.\($0)" }

    struct Entry: TimelineEntry, Codable {
        let date: Date
        let kind: String
        /// How many timelines this extension has made for the kind.
        let serial: Int
    }

    /// The timelines made per kind, per extension. The example counts them in its process; all
    /// embedded instances share the test's, so the count is kept per container (one per
    /// extension of each host; a relaunched instance goes on counting).
    static let serials = Mutex<[String: [String: Int]]>([:])

    static func nextSerial(_ kind: String) -> Int {
        let container = EmbeddedExtension.container ?? ""
        return serials.withLock { serials in
            serials[container, default: [:]][kind, default: 0] += 1
            return serials[container]![kind]!
        }
    }

    struct Provider<Plan: FleetPlan>: TimelineProvider {
        func placeholder(in context: Context) -> Entry {
            Entry(date: EmbeddedExtension.now, kind: Plan.kind, serial: 0)
        }

        func getSnapshot(in context: Context, completion: @escaping @Sendable (Entry) -> Void) {
            completion(placeholder(in: context))
        }

        func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<Entry>) -> Void) {
            let now = EmbeddedExtension.now
            let serial = nextSerial(Plan.kind)
            let entries = Plan.entryMinutes.map { Entry(date: now.addingTimeInterval(Double($0) * 60), kind: Plan.kind, serial: serial) }
            completion(Timeline(entries: entries, policy: Plan.policy(now: now)))
            if Plan.asksAgain {
                WidgetCenter.shared.reloadTimelines(ofKind: Plan.kind)
            }
        }
    }

    struct Widget<Plan: FleetPlan>: WidgetKit.Widget {
        var body: some WidgetConfiguration {
            StaticConfiguration(kind: Plan.kind, provider: Provider<Plan>()) { entry in
                Text("\(entry.kind) #\(entry.serial)")
                    .containerBackground(.fill.tertiary, for: .widget)
            }
            .configurationDisplayName(Plan.kind)
            .description("A fleet widget that reloads as its plan says.")
            .supportedFamilies([.systemSmall])
        }
    }

    struct Widgets: WidgetBundle {
        var body: some WidgetKit.Widget {
            Widget<Eager>()
            Widget<Quarterly>()
            Widget<Hourly>()
            Widget<Schedule>()
            Widget<Single>()
            Widget<Quarterday>()
            Widget<Greedy>()
            Widget<Stale>()
            Widget<Relay>()
            Widget<AppDriven>()
        }
    }
}

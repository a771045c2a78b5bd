// A widget whose getTimeline never calls its completion: it blocks forever. Placeholder and
// snapshot behave. The host must kill it when the timeline budget runs out (Hanging.app sets
// SandglassLimits.TimelineSeconds to 1) and keep the last good timeline.

import Dispatch
import SwiftUI
import WidgetKit

struct HangingEntry: TimelineEntry, Codable {
    let date: Date
    let status: String
}

struct HangingProvider: TimelineProvider {
    func placeholder(in context: Context) -> HangingEntry {
        HangingEntry(date: Date(), status: "placeholder")
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (HangingEntry) -> Void) {
        completion(HangingEntry(date: Date(), status: "snapshot"))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<HangingEntry>) -> Void) {
        // Waits for a signal that never comes; the completion below is never reached.
        let neverSignalled = DispatchSemaphore(value: 0)
        neverSignalled.wait()
        completion(Timeline(entries: [HangingEntry(date: Date(), status: "unreachable")], policy: .atEnd))
    }
}

@main
struct HangingTimelineWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Hanging", provider: HangingProvider()) { entry in
            Text(entry.status)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Hanging")
        .description("Never finishes its timeline.")
        .supportedFamilies([.systemSmall])
    }
}

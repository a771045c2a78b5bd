// A widget whose timeline never reloads by itself (`.never`) and that asks WidgetCenter for a
// reload the first time it is asked for a timeline, as an app does after its data changed.
// The host must honour the request: a second timeline follows, reason `reloadTimelines`.
// The first call is remembered in a file in the container (HOME), so a relaunched process
// knows it too.

import SwiftUI
import WidgetKit

struct ReloadingEntry: TimelineEntry, Codable {
    let date: Date
    let generation: Int
}

struct ReloadingProvider: TimelineProvider {
    private var marker: URL {
        FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent("generation")
    }

    func placeholder(in context: Context) -> ReloadingEntry {
        ReloadingEntry(date: Date(), generation: 0)
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (ReloadingEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<ReloadingEntry>) -> Void) {
        let previous = (try? String(contentsOf: marker, encoding: .utf8)).flatMap { Int($0) } ?? 0
        let generation = previous + 1
        try? String(generation).write(to: marker, atomically: true, encoding: .utf8)
        completion(Timeline(entries: [ReloadingEntry(date: Date(), generation: generation)], policy: .never))
        if generation == 1 {
            // New data arrived: ask the system for a fresh timeline.
            WidgetCenter.shared.reloadTimelines(ofKind: "Reloading")
        }
    }
}

@main
struct ReloadingTimelineWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Reloading", provider: ReloadingProvider()) { entry in
            VStack {
                Text("generation")
                    .font(.caption)
                    .foregroundStyle(.secondary)
                Text("\(entry.generation)")
                    .font(.largeTitle.bold())
            }
            .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Reloading")
        .description("Asks WidgetCenter for a reload once.")
        .supportedFamilies([.systemSmall])
    }
}

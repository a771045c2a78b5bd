//
//  NextMatchWidget.swift
//  LeaderboardWidget
//

import WidgetKit

struct NextMatchEntry: TimelineEntry, Codable {
    let date: Date
    let match: Match
}

struct NextMatchProvider: TimelineProvider {
    func placeholder(in context: Context) -> NextMatchEntry {
        let now = Date()
        return NextMatchEntry(date: now, match: League.sampleMatch(at: now))
    }

    func getSnapshot(in context: Context, completion: @escaping (NextMatchEntry) -> Void) {
        let now = Date()
        let match = context.isPreview ? League.sampleMatch(at: now) : League.nextMatch(after: now)
        completion(NextMatchEntry(date: now, match: match))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<NextMatchEntry>) -> Void) {
        let now = Date()
        let entry = NextMatchEntry(date: now, match: League.nextMatch(after: now))

        // Fixtures can change at any time: look again in 15 minutes.
        let nextUpdate = Calendar.current.date(byAdding: .minute, value: 15, to: now)!
        completion(Timeline(entries: [entry], policy: .after(nextUpdate)))
    }
}

struct NextMatchWidget: Widget {
    let kind: String = "NextMatch"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: NextMatchProvider()) { entry in
            let minutes = max(0, Int(entry.match.kickoff.timeIntervalSince(entry.date) / 60))
            return "\(entry.match.home) vs \(entry.match.away) at \(entry.match.venue), in \(minutes) min"
        }
        .configurationDisplayName("Next Match")
        .description("The next match of the league and where it is played.")
        .supportedFamilies([.systemSmall, .systemMedium, .accessoryRectangular, .accessoryInline])
    }
}

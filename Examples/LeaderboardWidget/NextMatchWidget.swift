//
//  NextMatchWidget.swift
//  LeaderboardWidget
//

import SwiftUI
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

struct NextMatchView: View {
    var entry: NextMatchEntry

    @Environment(\.widgetFamily) var family

    var body: some View {
        switch family {
        case .accessoryInline:
            Text("\(entry.match.home) vs \(entry.match.away) in \(entry.match.kickoff, style: .relative)")
        case .accessoryRectangular:
            VStack(alignment: .leading) {
                Text("\(entry.match.home) vs \(entry.match.away)")
                    .font(.headline)
                    .widgetAccentable()
                Text(entry.match.venue)
                Text(entry.match.kickoff, style: .timer)
            }
            .frame(maxWidth: .infinity, alignment: .leading)
        default:
            VStack(alignment: .leading, spacing: 6) {
                Label("Next match", systemImage: "sportscourt.fill")
                    .font(.caption.bold())
                    .foregroundStyle(.green)
                Text("\(entry.match.home) vs \(entry.match.away)")
                    .font(.headline)
                    .lineLimit(2)
                Text(entry.match.venue)
                    .font(.caption)
                    .foregroundStyle(.secondary)
                Spacer(minLength: 0)
                Text(entry.match.kickoff, style: .relative)
                    .font(.title3.bold())
                    .monospacedDigit()
            }
            .frame(maxWidth: .infinity, alignment: .leading)
        }
    }
}

struct NextMatchWidget: Widget {
    let kind: String = "NextMatch"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: NextMatchProvider()) { entry in
            NextMatchView(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Next Match")
        .description("The next match of the league and where it is played.")
        .supportedFamilies([.systemSmall, .systemMedium, .accessoryRectangular, .accessoryInline])
    }
}

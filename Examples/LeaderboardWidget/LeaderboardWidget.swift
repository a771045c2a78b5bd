//
//  LeaderboardWidget.swift
//  LeaderboardWidget
//

import SwiftUI
import WidgetKit

struct LeaderboardEntry: TimelineEntry, Codable {
    let date: Date
    let round: Int
    let players: [Player]

    var relevance: TimelineEntryRelevance? {
        // The closer the top two, the more interesting the widget.
        guard players.count > 1 else { return nil }
        return TimelineEntryRelevance(score: Float(max(1, 20 - (players[0].points - players[1].points))))
    }
}

struct LeaderboardProvider: TimelineProvider {
    func placeholder(in context: Context) -> LeaderboardEntry {
        LeaderboardEntry(date: Date(), round: 1, players: League.sampleStandings)
    }

    func getSnapshot(in context: Context, completion: @escaping (LeaderboardEntry) -> Void) {
        if context.isPreview {
            // The widget gallery: answer at once with sample data.
            completion(placeholder(in: context))
            return
        }
        let now = Date()
        completion(LeaderboardEntry(date: now, round: League.round(at: now), players: League.standings(at: now)))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<LeaderboardEntry>) -> Void) {
        var entries: [LeaderboardEntry] = []

        // Six entries five minutes apart, starting now; ask again after the last one.
        let currentDate = Date()
        for offset in 0..<6 {
            let entryDate = Calendar.current.date(byAdding: .minute, value: offset * 5, to: currentDate)!
            let visible = context.family == .systemSmall ? 3 : 5
            let standings = Array(League.standings(at: entryDate).prefix(visible))
            entries.append(LeaderboardEntry(date: entryDate, round: League.round(at: entryDate), players: standings))
        }

        let timeline = Timeline(entries: entries, policy: .atEnd)
        completion(timeline)
    }
}

struct LeaderboardEntryView: View {
    var entry: LeaderboardProvider.Entry

    @Environment(\.widgetFamily) var family

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            HStack {
                Text("Round \(entry.round)")
                    .font(.caption.bold())
                    .foregroundStyle(.secondary)
                Spacer()
                Image(systemName: "trophy.fill")
                    .foregroundStyle(.yellow)
            }
            ForEach(Array(entry.players.enumerated()), id: \.element.name) { index, player in
                HStack {
                    Text("\(index + 1).")
                        .foregroundStyle(.secondary)
                    Text(player.name)
                        .fontWeight(index == 0 ? .bold : .regular)
                    Spacer()
                    Text("\(player.points)")
                        .monospacedDigit()
                }
                .font(family == .systemSmall ? .footnote : .body)
            }
            Spacer(minLength: 0)
        }
    }
}

struct LeaderboardWidget: Widget {
    let kind: String = "Leaderboard"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: LeaderboardProvider()) { entry in
            LeaderboardEntryView(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Leaderboard")
        .description("See who is on top of the league.")
        .supportedFamilies([.systemSmall, .systemMedium, .systemLarge])
    }
}

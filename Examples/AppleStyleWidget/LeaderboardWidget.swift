//
//  LeaderboardWidget.swift
//  AppleStyleWidget
//
//  Emoji Rangers' leaderboard, with completions spelled as Xcode 16's template spells them,
//  `@escaping @Sendable`. Apple's sample serves it from a widget bundle; this extension's
//  `@main` is the single EmojiRangerWidget, so here it proves that the spelling compiles.
//

import SwiftUI
import WidgetKit

struct LeaderboardProvider: TimelineProvider {
    public typealias Entry = LeaderboardEntry

    func placeholder(in context: Context) -> LeaderboardEntry {
        LeaderboardEntry(date: Date(), characters: CharacterDetail.availableCharacters)
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (LeaderboardEntry) -> Void) {
        let entry = LeaderboardEntry(date: Date(), characters: CharacterDetail.availableCharacters)
        completion(entry)
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<LeaderboardEntry>) -> Void) {
        let entry = LeaderboardEntry(date: Date(), characters: CharacterDetail.availableCharacters)
        let timeline = Timeline(entries: [entry], policy: .never)
        completion(timeline)
    }
}

struct LeaderboardEntry: TimelineEntry {
    let date: Date
    let characters: [CharacterDetail]
}

struct LeaderboardWidgetEntryView: View {
    var entry: LeaderboardProvider.Entry

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Text("Ranger Leaderboard")
                .font(.headline)
            ForEach(entry.characters.sorted { $0.healthLevel > $1.healthLevel }, id: \.self) { character in
                HStack {
                    Text(character.avatar)
                        .font(.title)
                    VStack(alignment: .leading) {
                        Text(character.name)
                            .font(.subheadline.bold())
                        ProgressView(value: character.healthLevel)
                            .tint(.red)
                    }
                    Text("\(Int(character.healthLevel * 100))%")
                        .monospacedDigit()
                }
            }
            Spacer(minLength: 0)
        }
    }
}

struct LeaderboardWidget: Widget {
    let kind: String = "LeaderboardWidget"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: LeaderboardProvider()) { entry in
            LeaderboardWidgetEntryView(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Ranger Leaderboard")
        .description("See all the rangers.")
        .supportedFamilies([.systemLarge])
    }
}

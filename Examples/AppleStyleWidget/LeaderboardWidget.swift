//
//  LeaderboardWidget.swift
//  AppleStyleWidget
//
//  Emoji Rangers' leaderboard, with completions spelled as Xcode 16's template spells them,
//  `@escaping @Sendable`. Apple's sample serves it from a widget bundle; this extension's
//  `@main` is the single EmojiRangerWidget, so here it proves that the spelling compiles.
//

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

struct LeaderboardWidget: Widget {
    let kind: String = "LeaderboardWidget"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: LeaderboardProvider()) { entry in
            entry.characters
                .sorted { $0.healthLevel > $1.healthLevel }
                .map { "\($0.avatar) \(Int($0.healthLevel * 100))%" }
                .joined(separator: " ")
        }
        .configurationDisplayName("Ranger Leaderboard")
        .description("See all the rangers.")
        .supportedFamilies([.systemLarge])
    }
}

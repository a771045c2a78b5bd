//
//  EmojiRangerWidget.swift
//  AppleStyleWidget
//
//  Xcode's widget template and Apple's Emoji Rangers widget, with only the SwiftUI views
//  taken out: `import SwiftUI` is gone, and the content closure returns text.
//

import WidgetKit

struct Provider: TimelineProvider {
    func placeholder(in context: Context) -> SimpleEntry {
        SimpleEntry(date: Date(), relevance: nil, character: .panda)
    }

    func getSnapshot(in context: Context, completion: @escaping (SimpleEntry) -> ()) {
        let entry = SimpleEntry(date: Date(), relevance: nil, character: .panda)
        completion(entry)
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> ()) {
        let selectedCharacter = CharacterDetail.selectedCharacter
        let endDate = selectedCharacter.fullHealthDate
        let fiveMinutes: TimeInterval = 5 * 60
        var currentDate = Date()
        var entries: [SimpleEntry] = []

        // Generate a timeline of the hero's recovery, one entry every five minutes, until full health.
        while currentDate < endDate && entries.count < 12 {
            let relevance = TimelineEntryRelevance(score: Float(selectedCharacter.health(at: currentDate)))
            let entry = SimpleEntry(date: currentDate, relevance: relevance, character: selectedCharacter)

            currentDate += fiveMinutes
            entries.append(entry)
        }
        if entries.isEmpty {
            entries.append(SimpleEntry(date: currentDate, relevance: nil, character: selectedCharacter))
        }

        let timeline = Timeline(entries: entries, policy: .atEnd)
        completion(timeline)
    }
}

struct SimpleEntry: TimelineEntry {
    let date: Date
    let relevance: TimelineEntryRelevance?
    let character: CharacterDetail
}

// struct EmojiRangerWidgetEntryView: View { … } — the SwiftUI view, out of scope here.

@main
struct EmojiRangerWidget: Widget {
    let kind: String = "EmojiRangerWidget"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: Provider()) { entry in
            "\(entry.character.avatar) \(entry.character.name): \(Int(entry.character.health(at: entry.date) * 100))% health"
        }
        .configurationDisplayName("Ranger Detail")
        .description("See your favorite ranger.")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}

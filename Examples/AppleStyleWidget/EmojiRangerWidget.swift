//
//  EmojiRangerWidget.swift
//  AppleStyleWidget
//
//  Xcode's widget template and Apple's Emoji Rangers widget, views and all: `import SwiftUI`,
//  an entry view that switches on `@Environment(\.widgetFamily)`, dates that count as time
//  passes, `containerBackground(for: .widget)`, and the previews at the bottom of the file.
//

import SwiftUI
import WidgetKit

struct Provider: TimelineProvider {
    func placeholder(in context: Context) -> SimpleEntry {
        SimpleEntry(date: Date(), relevance: nil, character: .panda)
    }

    func getSnapshot(in context: Context, completion: @escaping (SimpleEntry) -> Void) {
        let entry = SimpleEntry(date: Date(), relevance: nil, character: .panda)
        completion(entry)
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
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

struct EmojiRangerWidgetEntryView: View {
    var entry: Provider.Entry

    @Environment(\.widgetFamily) var family

    @ViewBuilder
    var body: some View {
        switch family {
        case .accessoryCircular:
            ProgressView(value: entry.character.health(at: entry.date)) {
                Text(entry.character.avatar)
            }
            .progressViewStyle(.circular)
        case .accessoryRectangular:
            HStack(alignment: .center, spacing: 0) {
                VStack(alignment: .leading) {
                    Text(entry.character.name)
                        .font(.headline)
                        .widgetAccentable()
                    Text(entry.character.fullHealthDate, style: .timer)
                }
                .frame(maxWidth: .infinity, alignment: .leading)
                Text(entry.character.avatar)
                    .font(.title)
            }
        case .accessoryInline:
            Text("\(entry.character.avatar) ready in \(entry.character.fullHealthDate, style: .relative)")
        case .systemSmall:
            AvatarView(entry.character, at: entry.date)
        default:
            HStack(spacing: 12) {
                AvatarView(entry.character, at: entry.date)
                VStack(alignment: .leading, spacing: 6) {
                    Text(entry.character.heroType)
                        .font(.caption.bold())
                        .textCase(.uppercase)
                        .foregroundStyle(.secondary)
                    Text("Full health in")
                        .font(.footnote)
                    Text(entry.character.fullHealthDate, style: .relative)
                        .font(.headline)
                    Gauge(value: entry.character.health(at: entry.date)) {
                        Text("Health")
                    }
                    .tint(.green)
                }
            }
        }
    }
}

struct AvatarView: View {
    let character: CharacterDetail
    let date: Date

    init(_ character: CharacterDetail, at date: Date) {
        self.character = character
        self.date = date
    }

    var body: some View {
        VStack(spacing: 4) {
            Text(character.avatar)
                .font(.system(size: 44))
                .frame(width: 64, height: 64)
                .background(Circle().fill(.white.opacity(0.3)))
            Text(character.name)
                .font(.headline)
                .lineLimit(1)
                .minimumScaleFactor(0.7)
            Text("\(Int(character.health(at: date) * 100))% health")
                .font(.caption)
                .foregroundStyle(.secondary)
        }
    }
}

extension Color {
    static let gameBackgroundColor = Color(red: 0.36, green: 0.75, blue: 0.62)
}

@main
struct EmojiRangerWidget: Widget {
    let kind: String = "EmojiRangerWidget"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: Provider()) { entry in
            EmojiRangerWidgetEntryView(entry: entry)
                .containerBackground(for: .widget) {
                    Color.gameBackgroundColor
                }
        }
        .configurationDisplayName("Ranger Detail")
        .description("See your favorite ranger.")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}

// Xcode's previews, left in as widget files carry them: Sandglass compiles them and never runs
// them.
#Preview(as: .systemSmall) {
    EmojiRangerWidget()
} timeline: {
    SimpleEntry(date: .now, relevance: nil, character: .panda)
    SimpleEntry(date: .now, relevance: nil, character: .egghead)
}

struct EmojiRangerWidget_Previews: PreviewProvider {
    static var previews: some View {
        Group {
            EmojiRangerWidgetEntryView(entry: SimpleEntry(date: Date(), relevance: nil, character: .spouty))
                .previewContext(WidgetPreviewContext(family: .systemSmall))
            EmojiRangerWidgetEntryView(entry: SimpleEntry(date: Date(), relevance: nil, character: .spouty))
                .previewContext(WidgetPreviewContext(family: .accessoryRectangular))
                .previewDisplayName("Lock Screen")
        }
    }
}

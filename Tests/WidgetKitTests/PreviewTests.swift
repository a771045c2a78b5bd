import AppIntents
import Foundation
import Intents
import SwiftUI
import Testing
import WidgetKit

// Xcode previews as widget files carry them: this file compiling is most of the test. Each
// `#Preview` expands (SandglassPreviewMacros) to a function passing its arguments to
// `DeveloperToolsSupport.Preview`, so the widget, the entries, the provider and the views below
// are type-checked against the SDK, as Xcode checks them; nothing runs them.

struct PreviewedEntry: TimelineEntry {
    let date: Date
    let emoji: String
}

struct PreviewedProvider: TimelineProvider {
    func placeholder(in context: Context) -> PreviewedEntry { PreviewedEntry(date: Date(), emoji: "😀") }

    func getSnapshot(in context: Context, completion: @escaping (PreviewedEntry) -> Void) {
        completion(PreviewedEntry(date: Date(), emoji: "😀"))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<PreviewedEntry>) -> Void) {
        completion(Timeline(entries: [PreviewedEntry(date: Date(), emoji: "😀")], policy: .atEnd))
    }
}

struct PreviewedEntryView: View {
    var entry: PreviewedEntry

    var body: some View {
        VStack {
            Text("Time:")
            Text(entry.date, style: .time)
            Text(entry.emoji)
        }
    }
}

struct PreviewedWidget: Widget {
    let kind = "Previewed"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: PreviewedProvider()) { entry in
            PreviewedEntryView(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("My Widget")
    }
}

// Xcode's widget template.
#Preview(as: .systemSmall) {
    PreviewedWidget()
} timeline: {
    PreviewedEntry(date: .now, emoji: "😀")
    PreviewedEntry(date: .now, emoji: "🤩")
}

// Named, the labels written out, a loop in the timeline, and an availability attribute.
@available(iOS 17.0, macOS 14.0, *)
#Preview(
    "Loop", as: .systemMedium, widget: { PreviewedWidget() },
    timeline: {
        for emoji in ["🥳", "🫠"] {
            PreviewedEntry(date: .now, emoji: emoji)
        }
    })

#Preview(as: .accessoryRectangular) {
    PreviewedWidget()
} timelineProvider: {
    PreviewedProvider()
}

// Xcode's app intent widget template.
struct PreviewedIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource { "Configuration" }
    static var description: IntentDescription { "This is an example widget." }

    @Parameter(title: "Favorite Emoji", default: "😃")
    var favoriteEmoji: String
}

extension PreviewedIntent {
    fileprivate static var smiley: PreviewedIntent {
        let intent = PreviewedIntent()
        intent.favoriteEmoji = "😀"
        return intent
    }
}

struct PreviewedIntentEntry: TimelineEntry {
    let date: Date
    let configuration: PreviewedIntent
}

struct PreviewedIntentProvider: AppIntentTimelineProvider {
    func placeholder(in context: Context) -> PreviewedIntentEntry { PreviewedIntentEntry(date: Date(), configuration: PreviewedIntent()) }

    func snapshot(for configuration: PreviewedIntent, in context: Context) async -> PreviewedIntentEntry {
        PreviewedIntentEntry(date: Date(), configuration: configuration)
    }

    func timeline(for configuration: PreviewedIntent, in context: Context) async -> Timeline<PreviewedIntentEntry> {
        Timeline(entries: [PreviewedIntentEntry(date: Date(), configuration: configuration)], policy: .atEnd)
    }
}

struct PreviewedIntentWidget: Widget {
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "PreviewedIntent", intent: PreviewedIntent.self, provider: PreviewedIntentProvider()) { entry in
            Text(entry.configuration.favoriteEmoji)
        }
    }
}

#Preview(as: .systemSmall) {
    PreviewedIntentWidget()
} timeline: {
    PreviewedIntentEntry(date: .now, configuration: .smiley)
}

#Preview("Named", as: .accessoryRectangular, using: PreviewedIntent.smiley) {
    PreviewedIntentWidget()
} timelineProvider: {
    PreviewedIntentProvider()
}

// A SiriKit intent configuration.
final class PreviewedINIntent: INIntent {}

struct PreviewedINProvider: IntentTimelineProvider {
    func placeholder(in context: Context) -> PreviewedEntry { PreviewedEntry(date: Date(), emoji: "😀") }

    func getSnapshot(for configuration: PreviewedINIntent, in context: Context, completion: @escaping (PreviewedEntry) -> Void) {
        completion(PreviewedEntry(date: Date(), emoji: "😀"))
    }

    func getTimeline(for configuration: PreviewedINIntent, in context: Context, completion: @escaping (Timeline<PreviewedEntry>) -> Void) {
        completion(Timeline(entries: [PreviewedEntry(date: Date(), emoji: "😀")], policy: .never))
    }
}

#Preview(as: .systemLarge, using: PreviewedINIntent(), widget: { PreviewedWidget() }, timelineProvider: { PreviewedINProvider() })

// SwiftUI's previews of views.
#Preview {
    PreviewedEntryView(entry: PreviewedEntry(date: .now, emoji: "😀"))
}

#Preview("Dark") {
    PreviewedEntryView(entry: PreviewedEntry(date: .now, emoji: "😀"))
        .environment(\.colorScheme, .dark)
}

// A view preview given a widget's context, as some widget files write it.
@available(iOS 17.0, *)
#Preview {
    PreviewedEntryView(entry: PreviewedEntry(date: Date(), emoji: "🙂"))
        .previewContext(WidgetPreviewContext(family: .systemSmall))
}

/* A block comment, /* nested */, before the macro. */
#Preview("Traits", traits: .sizeThatFitsLayout, .landscapeLeft) {
    Text("One")
    Text("Two")
}

#Preview(traits: .fixedLayout(width: 170, height: 170)) {
    let entry = PreviewedEntry(date: .now, emoji: "🫥")
    if entry.emoji.isEmpty {
        Text("none")
    } else {
        PreviewedEntryView(entry: entry)
    }
}

// The form before #Preview.
struct PreviewedWidget_Previews: PreviewProvider {
    static var previews: some View {
        PreviewedEntryView(entry: PreviewedEntry(date: Date(), emoji: "😀"))
            .previewContext(WidgetPreviewContext(family: .systemSmall))
            .previewDisplayName("Small")
        PreviewedEntryView(entry: PreviewedEntry(date: Date(), emoji: "🤩"))
            .previewContext(WidgetPreviewContext(family: .accessoryCircular))
            .previewLayout(.fixed(width: 76, height: 76))
            .previewDevice("iPhone 15 Pro")
            .previewDevice(PreviewDevice(rawValue: "iPad Pro (11-inch)"))
            .previewInterfaceOrientation(.landscapeLeft)
            .previewLayout(.sizeThatFits)
    }

    static var platform: PreviewPlatform? { .iOS }
}

struct PreviewedInMembers {
    // A preview among a type's members, and one in a function's body.
    #Preview("Member") { Text("member") }

    func local() {
        #Preview("Local") { Text("local") }
    }
}

private struct PreviewedContextKey: PreviewContextKey {
    static var defaultValue: Int { 7 }
}

@Suite("previews")
struct PreviewTests {
    @Test("a widget preview context answers each key's default value")
    func widgetPreviewContext() {
        #expect(WidgetPreviewContext(family: .systemSmall)[PreviewedContextKey.self] == 7)
    }

    @Test("a preview provider's previews are views of the SDK (Sandglass never asks for them)")
    @MainActor
    func previewProviderPreviews() {
        let previews = PreviewedWidget_Previews.previews
        #expect(String(describing: type(of: previews)).contains("PreviewedEntryView"))
        #expect(PreviewedWidget_Previews.platform == .iOS)
    }
}

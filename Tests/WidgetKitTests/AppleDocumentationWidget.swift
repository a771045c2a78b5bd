import SwiftUI
import WidgetKit

// A widget written exactly as Apple's "Creating a widget extension" writes one: an entry, a
// TimelineProvider, views that switch on @Environment(\.widgetFamily), a date that counts down
// with Text(_:style:), stacks, and containerBackground(for: .widget). It is compiled into the
// tests unchanged and served by the SDK's runtime (ViewRenderingTests).

struct GameStatusEntry: TimelineEntry {
    let date: Date
    let gameStatus: String
    let nextTurn: Date
}

struct GameStatusProvider: TimelineProvider {
    func placeholder(in context: Context) -> GameStatusEntry {
        GameStatusEntry(date: referenceDate, gameStatus: "Your turn", nextTurn: referenceDate.addingTimeInterval(300))
    }

    func getSnapshot(in context: Context, completion: @escaping (GameStatusEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<GameStatusEntry>) -> Void) {
        let nextTurn = referenceDate.addingTimeInterval(3600)
        let entries = (0..<3).map { step in
            GameStatusEntry(date: referenceDate.addingTimeInterval(Double(step) * 900), gameStatus: "Waiting for Ada", nextTurn: nextTurn)
        }
        completion(Timeline(entries: entries, policy: .atEnd))
    }
}

struct GameTurnSummary: View {
    var entry: GameStatusEntry

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Text(entry.gameStatus)
                .font(.headline)
            Text("Next turn in")
                .font(.caption)
                .foregroundStyle(.secondary)
            Text(entry.nextTurn, style: .timer)
                .font(.title.monospacedDigit())
        }
    }
}

struct GameStatusWithLastTurnResult: View {
    var entry: GameStatusEntry

    var body: some View {
        HStack {
            GameTurnSummary(entry: entry)
            Spacer()
            VStack(alignment: .trailing) {
                Text("Last turn")
                    .font(.caption)
                Image(systemName: "checkmark.circle.fill")
                    .foregroundStyle(.green)
            }
        }
    }
}

struct GameStatusView: View {
    @Environment(\.widgetFamily) var family: WidgetFamily
    var entry: GameStatusEntry

    @ViewBuilder
    var body: some View {
        switch family {
        case .systemSmall: GameTurnSummary(entry: entry)
        case .systemMedium: GameStatusWithLastTurnResult(entry: entry)
        case .accessoryInline: Text("Next turn \(entry.nextTurn, style: .relative)")
        default: GameTurnSummary(entry: entry)
        }
    }
}

struct GameStatusWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "com.mygame.game-status", provider: GameStatusProvider()) { entry in
            GameStatusView(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Game Status")
        .description("Shows an overview of your game status")
        .supportedFamilies([.systemSmall, .systemMedium, .accessoryInline])
    }
}

/// A view that reads the colour scheme, and sets no container background.
struct SchemeView: View {
    @Environment(\.colorScheme) var colorScheme

    var body: some View {
        Text(colorScheme == .dark ? "Night" : "Day")
            .foregroundStyle(colorScheme == .dark ? Color.yellow : Color.blue)
    }
}

struct SchemeWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Scheme", provider: GameStatusProvider()) { _ in
            SchemeView()
        }
    }
}

struct DocumentationWidgets: WidgetBundle {
    var body: some Widget {
        GameStatusWidget()
        SchemeWidget()
    }
}

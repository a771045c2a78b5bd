import Foundation
import SandglassEmbedded
import SwiftUI
import WidgetKit

/// The example apps the backend tests run, with widgets that behave as the examples' do when run
/// embedded. Their providers read the run clock and the container through ``EmbeddedExtension``
/// where the examples' read `Date()` (the clock shim's) and `HOME`.
extension BackendApp {
    /// Leaderboard.app: Leaderboard (six entries 5 minutes apart, `.atEnd`) and NextMatch
    /// (`.after(now + 15 min)`).
    static let leaderboard = BackendApp(name: "Leaderboard.app") {
        ["com.example.leaderboard.widget": .init(bundle: EmbeddedLeaderboardWidgets.self)]
    }

    /// Hanging.app: its getTimeline never completes (1 s timeline budget in its Info.plist).
    static let hanging = BackendApp(name: "Hanging.app") {
        ["com.example.hanging.widget": .init(widget: EmbeddedHangingWidget.self)]
    }

    /// Garbage.app, as a bundle to install only: its extension breaks the protocol with bytes no
    /// embedded runtime sends, so it is not embedded (a launch of it fails).
    static let garbage = BackendApp(name: "Garbage.app") { [:] }

    /// Reloading.app: `.never`, and a `WidgetCenter` reload after its first timeline.
    static let reloading = BackendApp(name: "Reloading.app") {
        ["com.example.reloading.widget": .init(widget: EmbeddedReloadingWidget.self)]
    }
}

struct EmbeddedLeaderboardEntry: TimelineEntry, Codable {
    let date: Date
    let round: Int
}

struct EmbeddedLeaderboardProvider: TimelineProvider {
    func placeholder(in context: Context) -> EmbeddedLeaderboardEntry {
        EmbeddedLeaderboardEntry(date: EmbeddedExtension.now, round: 1)
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (EmbeddedLeaderboardEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<EmbeddedLeaderboardEntry>) -> Void) {
        let now = EmbeddedExtension.now
        let entries = (0..<6).map { EmbeddedLeaderboardEntry(date: now.addingTimeInterval(Double($0) * 300), round: $0 + 1) }
        completion(Timeline(entries: entries, policy: .atEnd))
    }
}

struct EmbeddedNextMatchProvider: TimelineProvider {
    func placeholder(in context: Context) -> EmbeddedLeaderboardEntry {
        EmbeddedLeaderboardEntry(date: EmbeddedExtension.now, round: 0)
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (EmbeddedLeaderboardEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<EmbeddedLeaderboardEntry>) -> Void) {
        let now = EmbeddedExtension.now
        completion(Timeline(entries: [EmbeddedLeaderboardEntry(date: now, round: 0)], policy: .after(now.addingTimeInterval(15 * 60))))
    }
}

struct EmbeddedLeaderboardWidgets: WidgetBundle {
    var body: some Widget {
        EmbeddedLeaderboardWidget()
        EmbeddedNextMatchWidget()
    }
}

struct EmbeddedLeaderboardWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Leaderboard", provider: EmbeddedLeaderboardProvider()) { entry in
            Text("Round \(entry.round)")
        }
        .supportedFamilies([.systemSmall, .systemMedium, .systemLarge])
    }
}

struct EmbeddedNextMatchWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "NextMatch", provider: EmbeddedNextMatchProvider()) { entry in
            Text("Next match")
        }
        .supportedFamilies([.systemSmall, .systemMedium, .accessoryRectangular, .accessoryInline])
    }
}

struct EmbeddedStatusEntry: TimelineEntry, Codable {
    let date: Date
    let status: String
}

/// Never completes its timeline. (It drops the completion where the example blocks a thread
/// forever: a kill cannot stop a thread of the test's process.)
struct EmbeddedHangingProvider: TimelineProvider {
    func placeholder(in context: Context) -> EmbeddedStatusEntry {
        EmbeddedStatusEntry(date: EmbeddedExtension.now, status: "placeholder")
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (EmbeddedStatusEntry) -> Void) {
        completion(EmbeddedStatusEntry(date: EmbeddedExtension.now, status: "snapshot"))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<EmbeddedStatusEntry>) -> Void) {}
}

struct EmbeddedHangingWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Hanging", provider: EmbeddedHangingProvider()) { entry in
            Text(entry.status)
        }
        .supportedFamilies([.systemSmall])
    }
}

struct EmbeddedGenerationEntry: TimelineEntry, Codable {
    let date: Date
    let generation: Int
}

/// `.never`; after its first timeline, asks `WidgetCenter` for another. The generation is kept
/// in the container, so a relaunched instance knows it too.
struct EmbeddedReloadingProvider: TimelineProvider {
    func placeholder(in context: Context) -> EmbeddedGenerationEntry {
        EmbeddedGenerationEntry(date: EmbeddedExtension.now, generation: 0)
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (EmbeddedGenerationEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<EmbeddedGenerationEntry>) -> Void) {
        let marker = URL(fileURLWithPath: (EmbeddedExtension.container ?? NSTemporaryDirectory()) + "/generation")
        let generation = ((try? String(contentsOf: marker, encoding: .utf8)).flatMap { Int($0) } ?? 0) + 1
        try? String(generation).write(to: marker, atomically: true, encoding: .utf8)
        completion(Timeline(entries: [EmbeddedGenerationEntry(date: EmbeddedExtension.now, generation: generation)], policy: .never))
        if generation == 1 { WidgetCenter.shared.reloadTimelines(ofKind: "Reloading") }
    }
}

struct EmbeddedReloadingWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Reloading", provider: EmbeddedReloadingProvider()) { entry in
            Text("\(entry.generation)")
        }
        .supportedFamilies([.systemSmall])
    }
}

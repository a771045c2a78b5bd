import SwiftUI
import Synchronization

@testable import WidgetKit

/// A fixed instant so replies can be compared exactly.
let referenceDate = Date(timeIntervalSince1970: 1_750_000_000)

// MARK: A Codable entry with a text rendering

struct ScoreEntry: TimelineEntry, Codable {
    let date: Date
    let leader: String
    let score: Int
    let family: String
    let width: Double
    let height: Double
    let onMainThread: Bool
    var relevance: TimelineEntryRelevance? {
        TimelineEntryRelevance(score: Float(score), duration: 300)
    }

    init(date: Date, leader: String, score: Int, context: TimelineProviderContext) {
        self.date = date
        self.leader = leader
        self.score = score
        self.family = context.family.rawValue
        self.width = Double(context.displaySize.width)
        self.height = Double(context.displaySize.height)
        self.onMainThread = Thread.isMainThread
    }
}

/// Written as in Apple's template, with `@escaping @Sendable` completions.
struct ScoreProvider: TimelineProvider {
    func placeholder(in context: Context) -> ScoreEntry {
        ScoreEntry(date: referenceDate, leader: "—", score: 0, context: context)
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (ScoreEntry) -> Void) {
        let leader = context.isPreview ? "Preview" : "Live"
        completion(ScoreEntry(date: referenceDate, leader: leader, score: 42, context: context))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<ScoreEntry>) -> Void) {
        let entries = (0..<3).map { step in
            ScoreEntry(
                date: referenceDate.addingTimeInterval(Double(step) * 300),
                leader: ["Ada", "Grace", "Linus"][step],
                score: 100 + step,
                context: context
            )
        }
        completion(Timeline(entries: entries, policy: .atEnd))
    }
}

struct ScoreWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Scores", provider: ScoreProvider()) { entry in
            Text("\(entry.leader): \(entry.score)")
        }
        .configurationDisplayName("Scores")
        .description("The leader of the week.")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}

// MARK: Reload policies, with a plain `@escaping` provider

struct PolicyEntry: TimelineEntry, Codable {
    let date: Date
}

/// Written as older Apple code is: completions without `@Sendable`.
struct PolicyProvider: TimelineProvider {
    let policy: TimelineReloadPolicy

    func placeholder(in context: Context) -> PolicyEntry {
        PolicyEntry(date: referenceDate)
    }

    func getSnapshot(in context: Context, completion: @escaping (PolicyEntry) -> Void) {
        completion(PolicyEntry(date: referenceDate))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<PolicyEntry>) -> Void) {
        completion(Timeline(entries: [PolicyEntry(date: referenceDate)], policy: policy))
    }
}

struct AfterPolicyWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(
            kind: "AfterPolicy",
            provider: PolicyProvider(policy: .after(referenceDate.addingTimeInterval(900)))
        )
    }
}

struct NeverPolicyWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "NeverPolicy", provider: PolicyProvider(policy: .never))
    }
}

// MARK: Completions called twice

struct TwiceProvider: TimelineProvider {
    func placeholder(in context: Context) -> PolicyEntry {
        PolicyEntry(date: referenceDate)
    }

    func getSnapshot(in context: Context, completion: @escaping (PolicyEntry) -> Void) {
        completion(PolicyEntry(date: referenceDate))
        completion(PolicyEntry(date: referenceDate.addingTimeInterval(1)))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<PolicyEntry>) -> Void) {
        completion(Timeline(entries: [PolicyEntry(date: referenceDate)], policy: .atEnd))
        DispatchQueue.global().async {
            completion(Timeline(entries: [PolicyEntry(date: referenceDate.addingTimeInterval(1))], policy: .never))
        }
    }
}

struct TwiceWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Twice", provider: TwiceProvider()) { entry in
            Text(verbatim: "at \(entry.date.timeIntervalSince1970)")
        }
    }
}

// MARK: A non-Codable entry, recorded through Mirror

enum Medal {
    case gold
    case silver
    case custom(String)
}

struct Player {
    let name: String
    let rating: Double
}

final class Team {
    let name = "Compilers"
    let founded: Date = referenceDate
}

struct MirroredEntry: TimelineEntry {
    let date: Date
    let title: String
    let count: Int
    let ratio: Float
    let isLive: Bool
    let nickname: String?
    let missing: String?
    let medal: Medal
    let special: Medal
    let players: [Player]
    let table: [String: Int]
    let link: URL
    let team: Team
    let pair: (wins: Int, losses: Int)
}

struct MirroredProvider: TimelineProvider {
    func placeholder(in context: Context) -> MirroredEntry {
        MirroredEntry(
            date: referenceDate,
            title: "Line \"one\"\nline two",
            count: 7,
            ratio: 0.5,
            isLive: true,
            nickname: "ace",
            missing: nil,
            medal: .gold,
            special: .custom("wooden spoon"),
            players: [Player(name: "Ada", rating: 1.5), Player(name: "Grace", rating: 2)],
            table: ["Ada": 3, "Grace": 1],
            link: URL(string: "https://example.com/board?week=3")!,
            team: Team(),
            pair: (wins: 3, losses: 1)
        )
    }

    func getSnapshot(in context: Context, completion: @escaping (MirroredEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<MirroredEntry>) -> Void) {
        completion(Timeline(entries: [placeholder(in: context)], policy: .never))
    }
}

struct MirroredWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Mirrored", provider: MirroredProvider())
    }
}

// MARK: App-intent providers

struct EmojiIntent: WidgetConfigurationIntent {
    var emoji = "🐉"
}

struct EmojiEntry: TimelineEntry {
    let date: Date
    let configuration: EmojiIntent
}

struct EmojiProvider: AppIntentTimelineProvider {
    func placeholder(in context: Context) -> EmojiEntry {
        EmojiEntry(date: referenceDate, configuration: EmojiIntent(emoji: "?"))
    }

    func snapshot(for configuration: EmojiIntent, in context: Context) async -> EmojiEntry {
        EmojiEntry(date: referenceDate, configuration: configuration)
    }

    func timeline(for configuration: EmojiIntent, in context: Context) async -> Timeline<EmojiEntry> {
        await Task.yield()
        let entries = (0..<2).map { EmojiEntry(date: referenceDate.addingTimeInterval(Double($0) * 3600), configuration: configuration) }
        return Timeline(entries: entries, policy: .after(referenceDate.addingTimeInterval(7200)))
    }
}

struct EmojiWidget: Widget {
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "Emoji", intent: EmojiIntent.self, provider: EmojiProvider()) { entry in
            Text("\(entry.configuration.emoji) at \(Int(entry.date.timeIntervalSince1970))")
        }
        .configurationDisplayName("Emoji")
    }
}

// MARK: Failures

struct BrokenEntry: TimelineEntry, Codable {
    let date: Date
    let value: Double
}

struct BrokenProvider: TimelineProvider {
    func placeholder(in context: Context) -> BrokenEntry {
        BrokenEntry(date: referenceDate, value: .nan)
    }

    func getSnapshot(in context: Context, completion: @escaping (BrokenEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<BrokenEntry>) -> Void) {
        completion(Timeline(entries: [placeholder(in: context)], policy: .atEnd))
    }
}

struct HugeEntry: TimelineEntry, Codable {
    let date: Date
    let blob: String
}

struct HugeProvider: TimelineProvider {
    func placeholder(in context: Context) -> HugeEntry {
        HugeEntry(date: referenceDate, blob: "")
    }

    func getSnapshot(in context: Context, completion: @escaping (HugeEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<HugeEntry>) -> Void) {
        let blob = String(repeating: "x", count: 300 * 1024)
        let entries = (0..<4).map { HugeEntry(date: referenceDate.addingTimeInterval(Double($0) * 300), blob: blob) }
        completion(Timeline(entries: entries, policy: .atEnd))
    }
}

/// A user-defined configuration made of another: the SDK follows its `body`.
struct FailuresConfiguration: WidgetConfiguration {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Broken", provider: BrokenProvider())
            .configurationDisplayName("Broken")
    }
}

struct BrokenWidget: Widget {
    var body: some WidgetConfiguration {
        FailuresConfiguration()
    }
}

struct HugeWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Huge", provider: HugeProvider())
    }
}

// MARK: WidgetCenter from inside a provider

struct ReloadingProvider: TimelineProvider {
    func placeholder(in context: Context) -> PolicyEntry {
        PolicyEntry(date: referenceDate)
    }

    func getSnapshot(in context: Context, completion: @escaping (PolicyEntry) -> Void) {
        completion(PolicyEntry(date: referenceDate))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<PolicyEntry>) -> Void) {
        WidgetCenter.shared.reloadTimelines(ofKind: "Scores")
        WidgetCenter.shared.reloadAllTimelines()
        completion(Timeline(entries: [PolicyEntry(date: referenceDate)], policy: .never))
    }
}

struct ReloadingWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Reloading", provider: ReloadingProvider())
    }
}

// MARK: Bundles

/// Picks widgets with `if`/`else` and `if` in the bundle builder.
let includeOptionalWidgets = true

struct TestBundle: WidgetBundle {
    var body: some Widget {
        ScoreWidget()
        AfterPolicyWidget()
        NeverPolicyWidget()
        TwiceWidget()
        MirroredWidget()
        EmojiWidget()
        BrokenWidget()
        HugeWidget()
        if includeOptionalWidgets {
            ReloadingWidget()
        }
    }
}

struct ConditionalBundle: WidgetBundle {
    var body: some Widget {
        if #available(iOS 17.0, macOS 14.0, *) {
            ScoreWidget()
        } else {
            NeverPolicyWidget()
        }
    }
}

struct ConditionalWidget: Widget {
    var body: some WidgetConfiguration {
        if #available(iOS 17.0, macOS 14.0, *) {
            StaticConfiguration(kind: "Conditional", provider: PolicyProvider(policy: .atEnd))
                .contentMarginsDisabled()
        } else {
            EmptyWidgetConfiguration()
        }
    }
}

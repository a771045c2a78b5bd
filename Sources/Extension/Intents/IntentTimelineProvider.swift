import Intents

/// A provider whose widget the user configures with a SiriKit custom intent
/// (`IntentConfiguration`), as most configurable widgets written before iOS 17 are.
///
/// ```swift
/// struct Provider: IntentTimelineProvider {
///     func placeholder(in context: Context) -> HeroEntry { HeroEntry(date: Date(), hero: nil) }
///
///     func getSnapshot(for configuration: ConfigurationIntent, in context: Context,
///                      completion: @escaping (HeroEntry) -> Void) {
///         completion(HeroEntry(date: Date(), hero: configuration.hero))
///     }
///
///     func getTimeline(for configuration: ConfigurationIntent, in context: Context,
///                      completion: @escaping (Timeline<HeroEntry>) -> Void) {
///         completion(Timeline(entries: [HeroEntry(date: Date(), hero: configuration.hero)], policy: .atEnd))
///     }
/// }
/// ```
///
/// The SDK passes the intent of the widget being asked for: `Intent()` with the parameters its
/// configuration sets (see `INIntent` in the `Intents` module).
public protocol IntentTimelineProvider: SendableMetatype {
    /// The type of the entries this provider produces.
    associatedtype Entry: TimelineEntry

    /// The custom intent that configures the widget.
    associatedtype Intent: INIntent

    /// What the provider is told about the widget.
    typealias Context = TimelineProviderContext

    /// A generic entry, returned at once, for the first display of the widget.
    func placeholder(in context: Context) -> Entry

    /// The entry for a transient display (the gallery when `context.isPreview` is `true`).
    @preconcurrency
    func getSnapshot(for configuration: Intent, in context: Context, completion: @escaping @Sendable (Entry) -> Void)

    /// The entries for now and, optionally, later, with a policy for the next reload.
    @preconcurrency
    func getTimeline(for configuration: Intent, in context: Context, completion: @escaping @Sendable (Timeline<Entry>) -> Void)

    /// Preconfigured intents offered where the user cannot edit the widget (watchOS, the
    /// Smart Stack); none by default.
    func recommendations() -> [IntentRecommendation<Intent>]
}

extension IntentTimelineProvider {
    public func recommendations() -> [IntentRecommendation<Intent>] { [] }
}

/// A preconfigured intent with its description.
public struct IntentRecommendation<Intent: INIntent>: @unchecked Sendable {
    /// The configured intent.
    public let intent: Intent
    /// What the system shows for it.
    public let description: String

    public init(intent: Intent, description: String) {
        self.intent = intent
        self.description = description
    }
}

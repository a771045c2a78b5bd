/// A type that tells WidgetKit when to update a widget's display.
///
/// The host calls the provider off the main thread. Each completion handler must be called
/// exactly once; a second call is ignored and logged.
///
/// ```swift
/// struct Provider: TimelineProvider {
///     func placeholder(in context: Context) -> SimpleEntry {
///         SimpleEntry(date: Date())
///     }
///
///     func getSnapshot(in context: Context, completion: @escaping (SimpleEntry) -> Void) {
///         completion(SimpleEntry(date: Date()))
///     }
///
///     func getTimeline(in context: Context, completion: @escaping (Timeline<SimpleEntry>) -> Void) {
///         completion(Timeline(entries: [SimpleEntry(date: Date())], policy: .atEnd))
///     }
/// }
/// ```
///
/// Providers that spell their completions `@escaping @Sendable` conform as well: the
/// requirements are `@preconcurrency`, as Apple declares them.
///
/// The protocol refines `SendableMetatype`: a conformance may not be isolated to an actor,
/// since the host calls providers from background threads.
public protocol TimelineProvider: SendableMetatype {
    /// The type of the entries this provider produces.
    associatedtype Entry: TimelineEntry

    /// What the provider is told about the widget.
    typealias Context = TimelineProviderContext

    /// A generic entry, returned at once, for the first display of the widget.
    func placeholder(in context: Context) -> Entry

    /// The entry for a transient display (the gallery when `context.isPreview` is `true`).
    @preconcurrency
    func getSnapshot(in context: Context, completion: @escaping @Sendable (Entry) -> Void)

    /// The entries for now and, optionally, later, with a policy for the next reload.
    @preconcurrency
    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<Entry>) -> Void)
}

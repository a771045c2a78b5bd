/// A provider whose widget the user configures with an app intent; its calls are `async`.
///
/// ```swift
/// struct Provider: AppIntentTimelineProvider {
///     func placeholder(in context: Context) -> SimpleEntry { SimpleEntry(date: Date()) }
///
///     func snapshot(for configuration: ConfigurationAppIntent, in context: Context) async -> SimpleEntry {
///         SimpleEntry(date: Date())
///     }
///
///     func timeline(for configuration: ConfigurationAppIntent, in context: Context) async -> Timeline<SimpleEntry> {
///         Timeline(entries: [SimpleEntry(date: Date())], policy: .atEnd)
///     }
/// }
/// ```
///
/// The protocol refines `SendableMetatype`: a conformance may not be isolated to an actor,
/// since the host calls providers from background tasks.
public protocol AppIntentTimelineProvider: SendableMetatype {
    /// The type of the entries this provider produces.
    associatedtype Entry: TimelineEntry

    /// The configuration intent; Sandglass passes its default value, `Intent()`.
    associatedtype Intent: WidgetConfigurationIntent

    /// What the provider is told about the widget.
    typealias Context = TimelineProviderContext

    /// A generic entry, returned at once, for the first display of the widget.
    func placeholder(in context: Context) -> Entry

    /// The entry for a transient display (the gallery when `context.isPreview` is `true`).
    @concurrent func snapshot(for configuration: Intent, in context: Context) async -> Entry

    /// The entries for now and, optionally, later, with a policy for the next reload.
    @concurrent func timeline(for configuration: Intent, in context: Context) async -> Timeline<Entry>
}

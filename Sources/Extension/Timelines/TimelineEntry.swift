/// A type that specifies the date to display a widget, and, optionally, the relevance of its content.
///
/// Entries need not be `Codable`: the SDK records an `Encodable` entry with `JSONEncoder`
/// and any other entry through `Mirror`.
///
/// ```swift
/// struct SimpleEntry: TimelineEntry {
///     let date: Date
///     let score: Int
/// }
/// ```
///
/// The protocol refines `SendableMetatype`: the SDK handles entries off the main actor,
/// so a conformance may not be isolated to an actor.
public protocol TimelineEntry: SendableMetatype {
    /// The date for WidgetKit to render the widget.
    var date: Date { get }

    /// The relevance of the widget's content compared to other entries; `nil` by default.
    var relevance: TimelineEntryRelevance? { get }
}

extension TimelineEntry {
    /// No relevance: the default for entries that do not declare one.
    public var relevance: TimelineEntryRelevance? { nil }
}

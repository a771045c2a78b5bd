/// Builds the entries of a widget preview's timeline: one entry per line, `for` loops too.
///
/// ```swift
/// } timeline: {
///     SimpleEntry(date: .now, emoji: "😀")
///     for emoji in ["🤩", "🥳"] {
///         SimpleEntry(date: .now, emoji: emoji)
///     }
/// }
/// ```
@resultBuilder
public struct PreviewTimelineBuilder {
    public static func buildExpression(_ entry: some TimelineEntry) -> [any TimelineEntry] {
        [entry]
    }

    public static func buildPartialBlock(first: [any TimelineEntry]) -> [any TimelineEntry] {
        first
    }

    public static func buildPartialBlock(accumulated: [any TimelineEntry], next: [any TimelineEntry]) -> [any TimelineEntry] {
        accumulated + next
    }

    public static func buildArray(_ components: [[any TimelineEntry]]) -> [any TimelineEntry] {
        components.flatMap { $0 }
    }
}

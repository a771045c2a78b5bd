/// How relevant a timeline entry is compared to the widget's other entries, and for how long.
///
/// ```swift
/// TimelineEntryRelevance(score: 10, duration: 15 * 60)
/// ```
public struct TimelineEntryRelevance: Sendable, Hashable {
    /// The relative score; higher is more relevant, 0 or less is not relevant.
    public let score: Float

    /// How long the relevance lasts, in seconds; 0 means until the next entry.
    public let duration: TimeInterval

    /// Creates a relevance with a score and an optional duration.
    public init(score: Float, duration: TimeInterval = 0) {
        self.score = score
        self.duration = duration
    }
}

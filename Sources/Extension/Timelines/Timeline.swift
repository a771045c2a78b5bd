/// The entries a provider hands to WidgetKit, and the policy for asking it for the next timeline.
///
/// ```swift
/// let timeline = Timeline(entries: entries, policy: .after(Date().addingTimeInterval(15 * 60)))
/// completion(timeline)
/// ```
public struct Timeline<EntryType: TimelineEntry> {
    /// The entries, each rendered when its `date` arrives.
    public let entries: [EntryType]

    /// When WidgetKit asks for the next timeline, at the earliest.
    public let policy: TimelineReloadPolicy

    /// Creates a timeline from entries and a reload policy.
    public init(entries: [EntryType], policy: TimelineReloadPolicy) {
        self.entries = entries
        self.policy = policy
    }
}

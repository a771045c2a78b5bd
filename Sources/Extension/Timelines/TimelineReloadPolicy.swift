/// The earliest date WidgetKit asks a provider for a new timeline.
///
/// Every date is a "not before": the host schedules reloads under a daily budget.
public struct TimelineReloadPolicy: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case atEnd
        case after(Date)
        case never
    }

    let kind: Kind

    private init(_ kind: Kind) {
        self.kind = kind
    }

    /// Ask for a new timeline after the last entry's date passes.
    public static let atEnd = TimelineReloadPolicy(.atEnd)

    /// Never ask on its own: the app calls `WidgetCenter` when a new timeline is available.
    public static let never = TimelineReloadPolicy(.never)

    /// Ask for a new timeline after `date`.
    public static func after(_ date: Date) -> TimelineReloadPolicy {
        TimelineReloadPolicy(.after(date))
    }
}

/// The reload date the system chooses for a timeline that gives it nothing to go by — `.atEnd`
/// with a single entry (or none). WWDC21: single-entry `.atEnd` timelines are not recommended
/// "as the system would choose a reload time for you"; KEEP: a frequently viewed widget gets
/// reloads "every 15 to 60 minutes".
///
/// **[harness]** The choice is deterministic: the later of the last entry's date and the reload
/// time plus an interval set by the widget's visibility — 15 min when always visible, 30 min
/// when often, 60 min when seldom or never.
enum SystemChosenReload {
    /// The interval for `visibility`.
    static func interval(for visibility: WidgetVisibility) -> Duration {
        switch visibility {
        case .always: .seconds(15 * 60)
        case .often: .seconds(30 * 60)
        case .seldom, .never: .seconds(60 * 60)
        }
    }

    /// Whether the system chooses the date for a timeline of `entryCount` entries with policy `atEnd`.
    static func applies(entryCount: Int) -> Bool { entryCount <= 1 }
}

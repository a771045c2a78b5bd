/// What the containing app is doing, as far as widget budgets care (Apple, "Keeping a widget up to date"): in the
/// foreground, or running an audio or navigation session, its widgets' reloads are free.
public enum AppActivity: String, Sendable, Hashable, CaseIterable {
    /// The app is in the foreground.
    case foreground
    /// The app has an active audio (Now Playing) session.
    case audioSession
    /// The app has an active navigation session.
    case navigationSession

    /// The exemption this activity grants.
    var exemption: BudgetExemption {
        switch self {
        case .foreground: .appForeground
        case .audioSession: .audioSession
        case .navigationSession: .navigationSession
        }
    }
}

/// How often the user looks at a widget. WidgetKit gives widgets that are seen more often
/// reloads sooner; here visibility sets the date the system chooses for a single-entry
/// `.atEnd` timeline (see `SystemChosenReload`). The raw values are `--visibility`'s.
public enum WidgetVisibility: String, Sendable, Hashable, CaseIterable {
    /// On the first Home Screen page, seen all the time.
    case always
    /// Seen often.
    case often
    /// On a page the user rarely visits.
    case seldom
    /// Never seen.
    case never
}

/// A system change that reloads every widget without counting against its budget.
public enum SystemChange: String, Sendable, Hashable, CaseIterable {
    /// Language or region.
    case locale
    /// Dynamic Type or accessibility settings.
    case accessibility
    /// Time zone or a set clock.
    case significantTime

    /// The reason the reloads it causes carry.
    var reloadReason: ReloadReason {
        switch self {
        case .locale: .localeChange
        case .accessibility: .accessibilityChange
        case .significantTime: .significantTimeChange
        }
    }
}

/// The simulated device state the reload decisions depend on: each app's activities, and the
/// widgets' visibility. Confined to the host's loop thread.
final class SystemState {
    /// Activities per app bundle identifier.
    private(set) var activities: [String: Set<AppActivity>] = [:]
    /// The visibility of every widget without one of its own.
    var visibility: WidgetVisibility
    /// Per-widget visibility, by widget id (`bundle/kind/family`).
    var widgetVisibility: [String: WidgetVisibility] = [:]

    init(visibility: WidgetVisibility) {
        self.visibility = visibility
    }

    /// Sets or clears `activity` for `app`; returns whether anything changed.
    func set(_ activity: AppActivity, _ active: Bool, app: String) -> Bool {
        var current = activities[app, default: []]
        let changed = active ? current.insert(activity).inserted : current.remove(activity) != nil
        activities[app] = current
        return changed
    }

    /// The exemption the app's activities grant now, if any (foreground first).
    func exemption(forApp app: String) -> BudgetExemption? {
        let current = activities[app, default: []]
        return AppActivity.allCases.first(where: current.contains)?.exemption
    }

    /// The visibility of widget `id`.
    func visibility(of id: String) -> WidgetVisibility {
        widgetVisibility[id] ?? visibility
    }
}

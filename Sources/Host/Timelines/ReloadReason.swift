/// Why a widget's timeline is reloaded. The raw values are the `reason` of `reload.requested`,
/// `reload.denied` (as `requested`) and `reload.coalesced` in the event log.
public enum ReloadReason: String, Sendable, Hashable, CaseIterable {
    /// The widget was added: its first timeline.
    case initial
    /// The date its timeline's reload policy asked for (`.atEnd`, `.after(_:)`) arrived.
    case policy
    /// The last reload failed or was killed; this is the next attempt.
    case retry
    /// `WidgetCenter.shared.reloadTimelines(ofKind:)`, from the extension or the containing app.
    case reloadTimelines
    /// `WidgetCenter.shared.reloadAllTimelines()`, from the extension or the containing app.
    case reloadAllTimelines
    /// The widget performed an app intent (the user tapped a button or toggled a switch).
    case appIntent
    /// The system locale (language, region) changed.
    case localeChange
    /// Dynamic Type or accessibility settings changed.
    case accessibilityChange
    /// A significant time change (time zone, clock set).
    case significantTimeChange
    /// The device moved significantly (widgets that use location).
    case significantLocationChange
    /// The user edited the widget's configuration (``ExtensionHost/setConfiguration(_:widget:)``).
    case configurationChanged

    /// The exemption the reason carries by itself, whatever the app is doing (Apple, "Keeping a widget up to date").
    var inherentExemption: BudgetExemption? {
        switch self {
        case .initial: .widgetAdded
        case .appIntent: .appIntent
        case .localeChange, .accessibilityChange, .significantTimeChange: .systemChange
        case .significantLocationChange: .significantLocationChange
        case .configurationChanged: .configurationChanged
        case .policy, .retry, .reloadTimelines, .reloadAllTimelines: nil
        }
    }

    /// Whether the request comes from WidgetCenter (the extension or its app).
    var isWidgetCenter: Bool { self == .reloadTimelines || self == .reloadAllTimelines }
}

/// Why a reload is not counted against the widget's budget. The raw values are the `exempt`
/// field of `reload.requested`.
public enum BudgetExemption: String, Sendable, Hashable, CaseIterable {
    /// The containing app is in the foreground.
    case appForeground
    /// The containing app has an active audio session.
    case audioSession
    /// The containing app has an active navigation session.
    case navigationSession
    /// The widget performed an app intent.
    case appIntent
    /// A system change (locale, accessibility, significant time change): the system reloads.
    case systemChange
    /// A significant location change.
    case significantLocationChange
    /// The user edited the widget's configuration: WidgetKit asks for its timeline again.
    case configurationChanged
    /// The widget's first timeline, when it is added **[harness]**.
    case widgetAdded
    /// Reload limits are lifted, as under Xcode's debugger (`--debug-reloads`).
    case debugReloads
}

import Foundation

/// Reloads, budgets and the simulated device, for tests: change what the app is doing and how
/// often widgets are seen, trigger reloads, read the ledger, ask why a widget did not reload.
///
/// Widgets are named by `bundle/kind/family` (a ``WidgetInstance/id``), by kind, or by the
/// extension's bundle identifier (all its widgets).
extension ExtensionHost {
    /// Puts the containing app in the foreground or takes it out (`app` nil: every installed
    /// app). While it is in the foreground its widgets' reloads do not count against their budgets.
    public func setAppForeground(_ isForeground: Bool, app: String? = nil) async {
        await core.setActivity(.foreground, isForeground, app: app)
    }

    /// Starts or ends an app's audio or navigation session, or its foreground (`app` nil: every
    /// installed app). Any of them makes its widgets' reloads free.
    public func setAppActivity(_ activity: AppActivity, active: Bool, app: String? = nil) async {
        await core.setActivity(activity, active, app: app)
    }

    /// Sets how often widgets are seen: every widget (`widget` nil) or those matching `widget`.
    /// Visibility sets the reload date the system chooses for single-entry `.atEnd` timelines.
    public func setVisibility(_ visibility: WidgetVisibility, widget: String? = nil) async {
        await core.setVisibility(visibility, widget: widget)
    }

    /// Simulates a system change (locale, accessibility, significant time change): every widget
    /// reloads, without counting against its budget.
    public func simulateSystemChange(_ change: SystemChange) async {
        await core.simulateSystemChange(change)
    }

    /// Simulates the user performing an app intent in the widgets matching `widget` (a button, a
    /// toggle): each gets one reload at once, free. Returns how many widgets matched.
    @discardableResult
    public func performAppIntent(widget: String) async -> Int {
        await core.requestReload(widget: widget, reason: .appIntent, origin: "host")
    }

    /// The containing app calls `WidgetCenter.shared.reloadTimelines(ofKind:)` (`app` nil: every
    /// installed app). Returns how many widgets were asked.
    @discardableResult
    public func reloadTimelines(ofKind kind: String, app: String? = nil) async -> Int {
        await core.appReload(kind: kind, app: app)
    }

    /// The containing app calls `WidgetCenter.shared.reloadAllTimelines()`.
    @discardableResult
    public func reloadAllTimelines(app: String? = nil) async -> Int {
        await core.appReload(kind: nil, app: app)
    }

    /// Asks for a reload of the widgets matching `widget` for any `reason` (for example
    /// `.significantLocationChange`), decided against the budget like any other.
    @discardableResult
    public func requestReload(widget: String, reason: ReloadReason) async -> Int {
        await core.requestReload(widget: widget, reason: reason, origin: "host")
    }

    /// Forgets the failures of extension `bundleIdentifier` — its backoff and a permanent
    /// failure — so that it is launched again. Returns false when no such extension is installed.
    @discardableResult
    public func clearFailures(_ bundleIdentifier: String) async -> Bool {
        await core.clearFailures(bundleIdentifier)
    }

    /// Why the widgets matching `widget` did or did not reload: what blocks each now, its budget
    /// over the last 24 hours, and the decisions so far.
    public func explain(_ widget: String) async -> [WidgetExplanation] {
        await core.explain(widget)
    }

    /// The reload ledger — every charged, exempt, denied or coalesced request — of the widgets
    /// matching `widget` (`nil`: all).
    public func ledger(widget: String? = nil) async -> [ReloadLedgerEntry] {
        ReloadLedgerEntry.entries(in: await core.history(), widget: widget)
    }
}

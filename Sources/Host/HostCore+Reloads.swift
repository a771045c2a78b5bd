import Foundation

/// The simulated device's state and the reload triggers of the host API.
extension HostCore {
    /// Installed apps' bundle identifiers matching `app` (`nil`: all).
    private func appIdentifiers(_ app: String?) -> [String] {
        let all = apps.map(\.bundleIdentifier)
        guard let app else { return all }
        return all.filter { $0 == app }
    }

    /// Starts or ends `activity` of `app` (`nil`: every installed app); returns the apps it applied to.
    @discardableResult
    func setActivity(_ activity: AppActivity, _ active: Bool, app: String?) -> [String] {
        let targets = appIdentifiers(app)
        for id in targets where system.set(activity, active, app: id) {
            log.emit(.appState, [("app", .string(id)), ("activity", .string(activity.rawValue)), ("active", .bool(active))])
        }
        return targets
    }

    /// Sets the visibility of every widget (`widget` nil) or of the widgets matching `widget`.
    func setVisibility(_ visibility: WidgetVisibility, widget: String?) {
        if let widget {
            for instance in scheduler.instances(matching: widget) {
                system.widgetVisibility[instance.id] = visibility
                log.emit(.visibilityChanged, [("widget", .string(instance.id)), ("visibility", .string(visibility.rawValue))])
            }
        } else {
            system.visibility = visibility
            system.widgetVisibility.removeAll()
            log.emit(.visibilityChanged, [("visibility", .string(visibility.rawValue))])
        }
    }

    /// A system change: every widget reloads, exempt from its budget.
    func simulateSystemChange(_ change: SystemChange) {
        log.emit(.systemChanged, [("change", .string(change.rawValue))])
        scheduler.requestReload(scheduler.instances, reason: change.reloadReason, origin: "system")
    }

    /// A reload of the widgets matching `widget` for `reason`; returns how many were asked.
    @discardableResult
    func requestReload(widget: String, reason: ReloadReason, origin: String) -> Int {
        let targets = scheduler.instances(matching: widget)
        scheduler.requestReload(targets, reason: reason, origin: origin)
        return targets.count
    }

    /// The containing app calls WidgetCenter: `kind` nil reloads all its widgets.
    @discardableResult
    func appReload(kind: String?, app: String?) -> Int {
        let ids = Set(appIdentifiers(app))
        let targets = scheduler.instances.filter { ids.contains($0.appIdentifier) && (kind == nil || $0.kind == kind) }
        scheduler.requestReload(targets, reason: kind == nil ? .reloadAllTimelines : .reloadTimelines, origin: "app")
        return targets.count
    }

    /// Forgets the failures of extension `bundle`, a permanent failure included.
    func clearFailures(_ bundle: String) -> Bool {
        guard let ext = supervisor.extensions[bundle] else { return false }
        supervisor.clearFailures(ext)
        scheduler.extensionRevived(ext)
        return true
    }

    /// Explanations of the widgets matching `widget`, now.
    func explain(_ widget: String) -> [WidgetExplanation] {
        WidgetExplanation.explain(widget, in: log.history, now: clock.nowMilliseconds)
    }

    /// The run clock's date now.
    func currentDate() -> Date {
        Date(timeIntervalSince1970: clock.currentDate)
    }
}

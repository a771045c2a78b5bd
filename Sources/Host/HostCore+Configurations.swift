import Foundation
import SandglassIPC

/// The configurations widgets carry: set by the user (the host API), read by
/// `WidgetCenter.getCurrentConfigurations`.
extension HostCore {
    /// Sets the configuration of the widgets matching `widget` (`nil` or empty: none) and
    /// reloads them, free of their budgets, as WidgetKit does after the user edits a widget.
    /// Returns how many widgets matched.
    func setConfiguration(_ json: String?, widget: String) throws(HostSetupError) -> Int {
        let text = json ?? ""
        if let problem = WidgetConfigurations.problem(with: text) {
            throw HostSetupError(description: "the configuration of widget '\(widget)' \(problem)")
        }
        let targets = scheduler.instances(matching: widget)
        for instance in targets {
            instance.configuration = Array(text.utf8)
            log.emit(.widgetConfigured, instance.fields + [("configuration", WidgetConfigurations.eventValue(text))])
        }
        scheduler.requestReload(targets, reason: .configurationChanged, origin: "user")
        return targets.count
    }

    /// The widgets of `app` on screen by `bundle/kind/family`, with their configurations.
    func configuredWidgets(app: String) -> [String: String?] {
        var result: [String: String?] = [:]
        for instance in scheduler.instances where instance.appIdentifier == app {
            result[instance.id] = instance.configuration.isEmpty ? nil : String(decoding: instance.configuration, as: UTF8.self)
        }
        return result
    }

    /// The widgets of `app` on screen, with their configurations.
    func currentConfigurations(app: String) -> [WidgetConfigurationPayload] {
        scheduler.instances.filter { $0.appIdentifier == app }
            .map { WidgetConfigurationPayload(kind: $0.kind, family: $0.family, intent: $0.configuration) }
    }
}

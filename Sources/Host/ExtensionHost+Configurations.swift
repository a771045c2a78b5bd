import Foundation

/// Widget configurations: what the user sets in a configurable widget's edit sheet.
extension ExtensionHost {
    /// Sets the configuration of the widgets matching `widget` — the intent's parameters as a
    /// JSON object, `nil` for none — and reloads them at once, free of their budgets, as after
    /// the user edits a widget (`widget.configured`, then `reload.requested` with reason
    /// `configurationChanged`). Returns how many widgets matched.
    ///
    /// ```swift
    /// try await host.setConfiguration(#"{"hero": "spider"}"#, widget: "Hero")
    /// ```
    @discardableResult
    public func setConfiguration(_ json: String?, widget: String) async throws -> Int {
        try await core.setConfiguration(json, widget: widget)
    }

    /// The widgets of `app` on screen (by `bundle/kind/family`) with their configurations
    /// (JSON, `nil` for none), as `WidgetCenter.getCurrentConfigurations` answers the app.
    public func currentConfigurations(app: String) async -> [String: String?] {
        await core.configuredWidgets(app: app)
    }
}

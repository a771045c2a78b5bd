/// Control of a running host from outside — what `sandglass ctl` does through the daemon.
extension ExtensionHost {
    /// Asks the widgets of `kind` (nil: every kind) of extension `bundle` (nil: every installed
    /// extension) for a new timeline, as the containing app's `WidgetCenter.reloadTimelines(ofKind:)`
    /// does: `reload.requested` (or `reload.denied` when no such widget is on screen), then the
    /// timeline activation.
    ///
    /// ```swift
    /// let asked = await host.requestTimelineReload(kind: "Leaderboard")
    /// ```
    ///
    /// - Returns: How many widgets were asked; nil when no extension `bundle` is installed.
    @discardableResult
    public func requestTimelineReload(kind: String? = nil, bundle: String? = nil) async -> Int? {
        await core.requestTimelineReload(kind: kind, bundle: bundle)
    }

    /// The bundle identifiers of the installed extensions, sorted.
    public func installedExtensions() async -> [String] {
        await core.installedExtensions()
    }
}

/// What the daemon's control socket asks of the host.
extension HostCore {
    /// Asks the widgets of `kind` (nil: every kind) of extension `bundle` (nil: every extension)
    /// for a new timeline, as `WidgetCenter.reloadTimelines(ofKind:)` does. Returns how many
    /// widgets were asked, or nil when no such extension is installed.
    func requestTimelineReload(kind: String?, bundle: String?) -> Int? {
        let targets = supervisor.extensions.values
            .filter { bundle == nil || $0.identifier == bundle }
            .sorted { $0.identifier < $1.identifier }
        if bundle != nil, targets.isEmpty { return nil }
        var asked = 0
        for ext in targets {
            let widgets = scheduler.instances.filter { $0.ext === ext && (kind == nil || $0.kind == kind) }
            guard !widgets.isEmpty || bundle != nil else { continue }
            scheduler.requestReload(from: ext, kind: kind)
            asked += widgets.count
        }
        return asked
    }

    /// The bundle identifiers of the installed extensions.
    func installedExtensions() -> [String] {
        supervisor.extensions.keys.sorted()
    }
}

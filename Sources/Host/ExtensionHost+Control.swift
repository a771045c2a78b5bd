/// What is installed, for control of a running host from outside (`sandglass ctl status`).
extension ExtensionHost {
    /// The bundle identifiers of the installed extensions, sorted.
    public func installedExtensions() async -> [String] {
        await core.installedExtensions()
    }

    /// The bundle identifiers of the installed (containing) apps, sorted.
    public func installedApps() async -> [String] {
        await core.installedApps()
    }

    /// Tells the host that its control socket refused a connection from process `pid`: when
    /// that is one of its extensions, `control.refused` is recorded within the extension's budget
    /// of denied calls (a storm of them kills it). False when `pid` is none of its extensions.
    @discardableResult
    public func controlRefused(pid: Int32, detail: String) async -> Bool {
        await core.controlRefused(pid: pid, detail: detail)
    }
}

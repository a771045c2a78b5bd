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
}

/// What the daemon's control socket asks of the host.
extension HostCore {
    /// The bundle identifiers of the installed extensions.
    func installedExtensions() -> [String] {
        supervisor.extensions.keys.sorted()
    }

    /// The bundle identifiers of the installed apps.
    func installedApps() -> [String] {
        apps.map(\.bundleIdentifier).sorted()
    }
}

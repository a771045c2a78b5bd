import Glibc

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

    /// A connection to the control socket from process `pid` was refused.
    func controlRefused(pid: pid_t, detail: String) -> Bool {
        supervisor.controlRefused(pid: pid, detail: detail)
    }
}

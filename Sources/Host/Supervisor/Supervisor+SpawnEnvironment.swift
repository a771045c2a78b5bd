/// The environment an extension's process starts with.
extension Supervisor {
    /// `base` (the run's extension environment) with what the SDK reads: the IPC descriptor, the
    /// bundle, the container as home and temporary directory, the principal class, the app
    /// groups; and a PATH of the system's directories.
    static func spawnEnvironment(for ext: ManagedExtension, base: [String: String]) -> [String: String] {
        var environment = base
        environment["SANDGLASS_IPC_FD"] = "3"
        environment["SANDGLASS_BUNDLE_IDENTIFIER"] = ext.identifier
        environment["SANDGLASS_CONTAINER"] = ext.container
        if let principalClass = ext.bundle.principalClass {
            // NSExtensionMain() makes this class (Info.plist's NSExtension.NSExtensionPrincipalClass).
            environment["SANDGLASS_PRINCIPAL_CLASS"] = principalClass
        }
        environment["HOME"] = ext.container
        // Foundation on Linux takes the home directory from the user database, not HOME,
        // unless CFFIXED_USER_HOME is set: with it, FileManager's user directories are the container.
        environment["CFFIXED_USER_HOME"] = ext.container
        environment["TMPDIR"] = ext.container + "/tmp"
        // UserDefaults keeps its suites in Library/Preferences, as on Apple's platforms (the SDK
        // brings an app group's suite from the group's container there and back).
        environment["XDG_CONFIG_HOME"] = ext.container + "/Library/Preferences"
        if let groups = Self.appGroupsEnvironment(ext.appGroups) { environment["SANDGLASS_APP_GROUPS"] = groups }
        environment["PATH"] = "/usr/bin:/bin"
        // libdispatch's complaints go to the process's standard error, which the run's log
        // records, not to syslog: its socket to /dev/log is one the sandbox denies.
        environment["LIBDISPATCH_LOG"] = "stderr"
        return environment
    }
}

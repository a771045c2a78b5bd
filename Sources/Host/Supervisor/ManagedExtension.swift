import SandglassIPC

/// An installed extension: its bundle, container, budgets, and the process it has now (if any).
public final class ManagedExtension {
    /// The app that contains it.
    public let app: AppBundle
    /// The extension bundle.
    public let bundle: ExtensionBundle
    /// Its container: `HOME`, `TMPDIR` and the only place it may write.
    public let container: String
    /// The uid and gid its processes run as; nil when they run as the host's user.
    public let identity: ExtensionIdentity?
    /// The containers of the app groups it declares, by group identifier.
    public internal(set) var appGroups: [String: String] = [:]
    /// The gids that open its app groups' containers to it (supplementary groups), when
    /// extensions have uids of their own.
    var appGroupGids: [UInt32] = []
    /// The budgets it runs under (defaults, its SandglassLimits, the run's overrides); the
    /// memory limit may be changed during a run (`setMemoryLimit(_:bytes:)` of `SandglassTesting`).
    public internal(set) var budgets: Budgets
    /// The last `hello` it sent.
    public internal(set) var hello: Hello?
    /// Processes spawned for it so far.
    public internal(set) var launches = 0
    var process: ExtensionProcess?
    /// Its failures in a row, backoff and permanent failure.
    var crashLoop = CrashLoop()

    init(app: AppBundle, bundle: ExtensionBundle, container: String, identity: ExtensionIdentity?, budgets: Budgets) {
        self.app = app
        self.bundle = bundle
        self.container = container
        self.identity = identity
        self.budgets = budgets
    }

    /// `CFBundleIdentifier` of the extension.
    public var identifier: String { bundle.bundleIdentifier }

    /// The pid of its live process.
    public var pid: Int32? { process?.pid }
}

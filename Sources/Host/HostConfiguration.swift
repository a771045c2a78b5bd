import Foundation
import SandglassIPC

/// How a host runs: where it keeps its data, which clock, the budgets and the sandbox.
public struct HostConfiguration: Sendable {
    /// Containers (and, later, the journal) live here. Created if missing.
    public var dataDirectory: String
    /// Real or virtual time.
    public var clock: ClockMode = .real
    /// The operator's budgets for every extension of the run, over the defaults: each is also the
    /// ceiling of what an extension's own `SandglassLimits` may ask for (it may ask for less).
    public var budgetOverrides = LimitOverrides()
    /// The sandbox layers and rlimits.
    public var sandbox = SandboxPolicy.standard
    /// Refuse to start when the run would go without a layer of the sandbox — one the policy
    /// turns off, or one this machine cannot give (no Landlock, no cgroup, no namespaces without
    /// `CAP_SYS_ADMIN`) — rather than start and say so in `run.start` (`--require-sandbox`).
    public var requiresEverySandboxLayer = false
    /// Write the event log here as JSON lines.
    public var logPath: String?
    /// Print the readable trace here (standard error or output); `nil` for none.
    public var trace: TraceDestination?
    /// The largest IPC frame accepted from an extension.
    public var maximumFrameLength = 1 << 20
    /// Add one widget instance per kind when an app is installed and keep their timelines.
    public var schedulesWidgets = true
    /// Lift the reload budget and the 5-minute minimum spacing, as Xcode's debugger does
    /// (`--debug-reloads`). Every reload is still recorded, as exempt `debugReloads`.
    public var debugReloads = false
    /// How an extension that keeps dying is relaunched, and when it has failed for good.
    public var relaunchBackoff = RelaunchBackoff()
    /// On the virtual clock, extensions' `Date()` follows it through `libsandglass-clock.so`
    /// (LD_PRELOAD). Turn off to leave their wall clock real.
    public var extensionsFollowVirtualClock = true
    /// Where `libsandglass-clock.so` is, when not next to the executable or in `SANDGLASS_CLOCK_SHIM`.
    public var clockShimPath: String?
    /// The location state at the start: the app's authorization, the widgets' approval, the
    /// position or route, the in-use window.
    public var location = LocationSettings()
    /// When the widgets (and the Today view) are on screen.
    public var visibility: VisibilitySchedule = .always
    /// Timed changes of location and visibility (a scenario's `changes`).
    public var changes: [ScenarioChange] = []
    /// When Today extensions are asked to update.
    public var today = TodaySettings()
    /// Extra environment variables for every extension process (for example the base URL of a
    /// test server). The host's own variables (`HOME`, `SANDGLASS_*`, …) win over these.
    public var extensionEnvironment: [String: String] = [:]
    /// How many of the latest events the host keeps in memory; `nil` keeps them all. The run's
    /// summary, `explain`, the ledger and `events()` read this history, so a bounded host
    /// answers them for its latest events only; the log file (``logPath``) always has every
    /// event. A long-running daemon bounds it (`sandglass serve --event-history`).
    public var eventHistoryLimit: Int?
    /// How many bytes of events the host keeps in memory at most (their JSON lines), whatever
    /// ``eventHistoryLimit`` allows; `nil`: no bound in bytes. `sandglass serve` bounds it.
    public var eventHistoryBytes: Int?
    /// The budgets on what an extension may send unasked: log bytes, reload and diagnostic rates,
    /// requests a second, inline tasks alive at once.
    public var messageLimits = MessageLimits()
    /// Where the host connects for an extension's requests (``ConnectPolicy/standard``: not to
    /// link-local, cloud metadata, unspecified, multicast or reserved addresses).
    public var connectPolicy = ConnectPolicy.standard
    /// How many requests the host has on the wire at once, for one extension, one app and in all.
    public var concurrentTransfers = ConcurrentTransfers()
    /// The configurations widgets carry, as the user sets them in a widget's edit sheet: the
    /// intent's parameters as a JSON object, by widget name (`bundle/kind/family`,
    /// `bundle/kind`, kind, or bundle identifier; the most specific wins). `IntentConfiguration`
    /// and `AppIntentConfiguration` providers get their intent with these parameters set.
    public var widgetConfigurations: [String: String] = [:]
    /// Shows the private values of `Logger` and `os_log` messages in the event log, as Xcode
    /// does for the process it launches (`sandglass run --log-private`); by default they are
    /// redacted (`<private>`), as on a device. `.sensitive` values stay redacted either way.
    public var revealsPrivateLogValues = false

    /// Directories whose files seed app groups' containers at install, by group identifier
    /// (`sandglass run --app-group group.x=DIR`): every installed app that declares the group
    /// gets a copy (files replaced, others kept).
    public var appGroupSeeds: [String: String] = [:]

    /// What launches the extensions' processes instead of the sandbox (nil: the sandbox spawns
    /// real children). For the package's tests: `SandglassEmbedded` runs the SDK in-process.
    package var launcher: (any ProcessLauncher & Sendable)?

    /// A configuration with its data in `dataDirectory`.
    public init(dataDirectory: String) {
        self.dataDirectory = dataDirectory
    }

    /// A configuration with a fresh temporary data directory.
    public static func temporary() -> HostConfiguration {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-\(UUID().uuidString.prefix(8))").path
        return HostConfiguration(dataDirectory: dir)
    }
}

/// Where the readable trace goes.
public enum TraceDestination: Sendable, Hashable {
    case standardOutput
    case standardError
}

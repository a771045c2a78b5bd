import SandglassIPC

/// The limits an extension runs under: time budgets per activation, memory, reloads.
///
/// Defaults are what iOS gives (the README's "Budgets and limits" cites each); each can be changed per run (the
/// operator's `--budget`), and lowered — never raised — per bundle through the extension's
/// `SandglassLimits` Info.plist dictionary (``LimitOverrides/capped(by:)``).
public struct Budgets: Sendable, Hashable {
    /// exec → `hello`.
    public var launch: Duration = .seconds(1)
    /// `placeholder(in:)`.
    public var placeholder: Duration = .seconds(1)
    /// `getSnapshot(in:completion:)`.
    public var snapshot: Duration = .seconds(5)
    /// `getTimeline(in:completion:)`.
    public var timeline: Duration = .seconds(30)
    /// `backgroundEvents` → `eventsFinished`.
    public var backgroundEvents: Duration = .seconds(30)
    /// Today `widgetPerformUpdate` → completion handler.
    public var performUpdate: Duration = .seconds(10)
    /// After the last activation ends, the process is terminated when this has passed.
    public var idle: Duration = .seconds(5)
    /// Resident memory; over it the process is killed with reason `memory`.
    public var memoryBytes: Int = 30 << 20
    /// Timeline reloads per widget instance in any rolling 24 hours.
    public var reloadsPerDay: Int = 60
    /// Bytes the container may hold (allocated blocks), and each app group's container the
    /// extension shares; over it the process is killed with reason `resource`. Also every
    /// file's size limit (RLIMIT_FSIZE).
    public var containerBytes: Int = 256 << 20
    /// Files, directories and links the container (and each app group's) may hold; over it, as
    /// for ``containerBytes``.
    public var containerInodes: Int = 10_000

    public init() {}

    /// The defaults for an extension of `role`: 30 MiB for widgets, 16 MiB for Today extensions.
    public static func defaults(for role: ExtensionRole) -> Budgets {
        var budgets = Budgets()
        if role == .today { budgets.memoryBytes = 16 << 20 }
        return budgets
    }
}

/// Overrides of ``Budgets`` from an extension's `SandglassLimits` dictionary; every key optional.
public struct LimitOverrides: Sendable, Hashable {
    public var launch: Duration?
    public var placeholder: Duration?
    public var snapshot: Duration?
    public var timeline: Duration?
    public var backgroundEvents: Duration?
    public var performUpdate: Duration?
    public var idle: Duration?
    public var memoryBytes: Int?
    public var reloadsPerDay: Int?
    public var containerBytes: Int?
    public var containerInodes: Int?

    public init() {}

    /// `budgets` with every override that is set.
    public func applied(to budgets: Budgets) -> Budgets {
        var b = budgets
        if let launch { b.launch = launch }
        if let placeholder { b.placeholder = placeholder }
        if let snapshot { b.snapshot = snapshot }
        if let timeline { b.timeline = timeline }
        if let backgroundEvents { b.backgroundEvents = backgroundEvents }
        if let performUpdate { b.performUpdate = performUpdate }
        if let idle { b.idle = idle }
        if let memoryBytes { b.memoryBytes = memoryBytes }
        if let reloadsPerDay { b.reloadsPerDay = reloadsPerDay }
        if let containerBytes { b.containerBytes = containerBytes }
        if let containerInodes { b.containerInodes = containerInodes }
        return b
    }
}

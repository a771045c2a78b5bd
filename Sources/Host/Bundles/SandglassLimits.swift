/// Reads an extension's `SandglassLimits` dictionary into ``LimitOverrides``.
///
/// Every key is optional. Times are positive numbers of seconds, `<integer>` or `<real>`;
/// `MemoryMiB`, `ReloadsPerDay`, `ContainerMiB` and `ContainerFiles` are positive `<integer>`s.
/// A bundle may only lower a limit: the host caps what it asks at the operator's value (the
/// default when the operator sets none). An unknown key is an error, so
/// a misspelt limit does not silently leave the default in force.
enum SandglassLimits {
    /// The Info.plist key of the dictionary.
    static let key = "SandglassLimits"

    /// Every key the dictionary may hold, in the order of ``Budgets``.
    static let knownKeys = [
        "LaunchSeconds", "PlaceholderSeconds", "SnapshotSeconds", "TimelineSeconds",
        "BackgroundEventsSeconds", "PerformUpdateSeconds", "IdleSeconds", "MemoryMiB", "ReloadsPerDay",
        "ContainerMiB", "ContainerFiles"
    ]

    /// The largest time accepted, in seconds (about 31 years): larger values are surely mistakes.
    static let maximumSeconds = 1_000_000_000

    /// The overrides the dictionary declares.
    static func parse(_ limits: PropertyListDictionary) throws(BundleError) -> LimitOverrides {
        var overrides = LimitOverrides()
        if let unknown = limits.values.keys.sorted().first(where: { !knownKeys.contains($0) }) {
            throw limits.error(unknown, "is not a known limit; the known keys are \(knownKeys.joined(separator: ", "))")
        }
        overrides.launch = try seconds("LaunchSeconds", in: limits)
        overrides.placeholder = try seconds("PlaceholderSeconds", in: limits)
        overrides.snapshot = try seconds("SnapshotSeconds", in: limits)
        overrides.timeline = try seconds("TimelineSeconds", in: limits)
        overrides.backgroundEvents = try seconds("BackgroundEventsSeconds", in: limits)
        overrides.performUpdate = try seconds("PerformUpdateSeconds", in: limits)
        overrides.idle = try seconds("IdleSeconds", in: limits)
        if let mebibytes = try positiveInteger("MemoryMiB", unit: "MiB", maximum: Int.max >> 20, in: limits) {
            overrides.memoryBytes = mebibytes << 20
        }
        overrides.reloadsPerDay = try positiveInteger("ReloadsPerDay", unit: "reloads", maximum: Int.max, in: limits)
        if let mebibytes = try positiveInteger("ContainerMiB", unit: "MiB", maximum: Int.max >> 20, in: limits) {
            overrides.containerBytes = mebibytes << 20
        }
        overrides.containerInodes = try positiveInteger("ContainerFiles", unit: "files", maximum: Int.max, in: limits)
        return overrides
    }

    private static func seconds(_ key: String, in limits: PropertyListDictionary) throws(BundleError) -> Duration? {
        guard let value = limits.value(key) else { return nil }
        let expected = "it must be a positive number of seconds, at most \(maximumSeconds), e.g. <integer>2</integer> or <real>0.5</real>"
        switch value {
        case .integer(let n) where n > 0 && n <= maximumSeconds:
            return .seconds(n)
        case .real(let d) where d.isFinite && d > 0 && d <= Double(maximumSeconds):
            return .seconds(d)
        default:
            throw limits.error(key, "is \(value.summary); \(expected)")
        }
    }

    private static func positiveInteger(
        _ key: String, unit: String, maximum: Int, in limits: PropertyListDictionary
    ) throws(BundleError) -> Int? {
        guard let value = limits.value(key) else { return nil }
        guard case .integer(let n) = value, n > 0, n <= maximum else {
            throw limits.error(key, "is \(value.summary); it must be a positive <integer> of \(unit), e.g. <integer>16</integer>")
        }
        return n
    }
}

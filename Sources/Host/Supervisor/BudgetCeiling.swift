/// A limit an extension's `SandglassLimits` asked to raise above the operator's ceiling, and
/// what it got instead: recorded as a `limits.capped` event.
public struct BudgetCap: Sendable, Hashable {
    /// The `SandglassLimits` key (`MemoryMiB`, `TimelineSeconds`, …).
    public var key: String
    /// What the bundle asked for, in the key's unit.
    public var asked: Double
    /// What it runs under: the ceiling, in the key's unit.
    public var granted: Double
}

extension LimitOverrides {
    /// The budgets of an extension whose `SandglassLimits` are these overrides, under `ceiling`
    /// (the operator's budgets, or the defaults when the operator set none): a key it sets
    /// lowers its budget, never raises it; a key it does not set leaves the ceiling. Every key
    /// asked above the ceiling is capped and returned.
    public func capped(by ceiling: Budgets) -> (budgets: Budgets, caps: [BudgetCap]) {
        var budgets = ceiling
        var caps: [BudgetCap] = []
        func duration(_ key: String, _ asked: Duration?, _ path: WritableKeyPath<Budgets, Duration>) {
            guard let asked else { return }
            if asked > ceiling[keyPath: path] {
                caps.append(BudgetCap(key: key, asked: asked.milliseconds / 1000, granted: ceiling[keyPath: path].milliseconds / 1000))
            } else {
                budgets[keyPath: path] = asked
            }
        }
        func count(_ key: String, _ asked: Int?, _ path: WritableKeyPath<Budgets, Int>, unit: Int = 1) {
            guard let asked else { return }
            if asked > ceiling[keyPath: path] {
                caps.append(
                    BudgetCap(key: key, asked: Double(asked) / Double(unit), granted: Double(ceiling[keyPath: path]) / Double(unit)))
            } else {
                budgets[keyPath: path] = asked
            }
        }
        duration("LaunchSeconds", launch, \.launch)
        duration("PlaceholderSeconds", placeholder, \.placeholder)
        duration("SnapshotSeconds", snapshot, \.snapshot)
        duration("TimelineSeconds", timeline, \.timeline)
        duration("BackgroundEventsSeconds", backgroundEvents, \.backgroundEvents)
        duration("PerformUpdateSeconds", performUpdate, \.performUpdate)
        duration("IdleSeconds", idle, \.idle)
        count("MemoryMiB", memoryBytes, \.memoryBytes, unit: 1 << 20)
        count("ReloadsPerDay", reloadsPerDay, \.reloadsPerDay)
        count("ContainerMiB", containerBytes, \.containerBytes, unit: 1 << 20)
        count("ContainerFiles", containerInodes, \.containerInodes)
        return (budgets, caps)
    }
}

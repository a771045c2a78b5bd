/// How the host relaunches an extension that keeps dying: exponential backoff with a cap, and a
/// permanent-failure rule (after s6's `s6-permafailon`: so many deaths within so long).
///
/// A *failure* is a death the extension is to blame for: a crash (a signal, a non-zero exit), a
/// spawn or launch that failed, or a kill for `timeBudget`, `memory`, `cpu` or
/// `protocolViolation`. Kills for `idle`, `chaos`, `hostShutdown` and `sessionConflict` are not
/// failures. Each failure schedules the next launch no earlier than `initial × multiplierⁿ⁻¹`
/// (capped at `maximum`) after the death, on the run clock; an activation that answers clears
/// the count. `permanentFailureCount` failures in a row, all within `permanentFailureWindow`,
/// mark the extension failed permanently: it is not launched again until
/// `ExtensionHost.clearFailures(_:)` (its widgets keep their last timeline).
///
/// ```swift
/// var configuration = HostConfiguration.temporary()
/// configuration.relaunchBackoff = RelaunchBackoff(initial: .seconds(1), maximum: .seconds(300),
///                                                 permanentFailureCount: 10, permanentFailureWindow: .seconds(3600))
/// ```
public struct RelaunchBackoff: Sendable, Hashable {
    /// The delay after the first failure.
    public var initial: Duration
    /// Each further failure in a row multiplies the delay by this.
    public var multiplier: Double
    /// The longest delay.
    public var maximum: Duration
    /// This many failures in a row within ``permanentFailureWindow`` are a permanent failure
    /// (0: never).
    public var permanentFailureCount: Int
    /// The window of the permanent-failure rule, on the run clock.
    public var permanentFailureWindow: Duration

    /// 1 s, 2 s, 4 s … capped at 5 min; permanent after 10 failures in a row within an hour.
    public init(
        initial: Duration = .seconds(1), multiplier: Double = 2, maximum: Duration = .seconds(300),
        permanentFailureCount: Int = 10, permanentFailureWindow: Duration = .seconds(3600)
    ) {
        self.initial = initial
        self.multiplier = multiplier
        self.maximum = maximum
        self.permanentFailureCount = permanentFailureCount
        self.permanentFailureWindow = permanentFailureWindow
    }

    /// The delay after the `failures`-th failure in a row (1-based).
    public func delay(afterFailures failures: Int) -> Duration {
        guard failures > 0 else { return .zero }
        let seconds = Double(initial.nanoseconds) / 1e9 * pow(multiplier, Double(failures - 1))
        let capped = min(seconds, Double(maximum.nanoseconds) / 1e9)
        return .nanoseconds(Int64(capped * 1e9))
    }
}

/// `x` to the power `y` for the backoff (Foundation-free).
private func pow(_ x: Double, _ y: Double) -> Double {
    var result = 1.0
    var remaining = Int(y)
    while remaining > 0 && result < 1e12 {
        result *= x
        remaining -= 1
    }
    return result
}

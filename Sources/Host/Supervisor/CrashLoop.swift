/// One extension's record of deaths it is to blame for, and the decisions that follow from it:
/// when it may be launched again, and whether it has failed permanently (see ``RelaunchBackoff``).
/// A value; the supervisor keeps one per extension and records the decisions as events.
struct CrashLoop {
    /// What a failure led to.
    enum Decision: Equatable {
        /// The next launch waits until run time `until` (`delay` after the death).
        case backoff(delay: Duration, until: UInt64)
        /// The rule tripped: no more launches.
        case failedPermanently
    }

    /// Failures in a row (an activation that answers clears them), with their run times and causes.
    private(set) var failures: [(at: UInt64, cause: String)] = []
    /// No launch before this run time.
    private(set) var backoffUntil: UInt64?
    /// Run time at which the extension was marked failed permanently.
    private(set) var failedPermanentlyAt: UInt64?

    var isFailedPermanently: Bool { failedPermanentlyAt != nil }

    /// Records a failure at `now` and decides.
    mutating func recordFailure(at now: UInt64, cause: String, policy: RelaunchBackoff) -> Decision {
        failures.append((now, cause))
        if policy.permanentFailureCount > 0, failures.count >= policy.permanentFailureCount {
            let recent = failures.suffix(policy.permanentFailureCount)
            if let first = recent.first, now - first.at <= policy.permanentFailureWindow.nanoseconds {
                failedPermanentlyAt = now
                backoffUntil = nil
                return .failedPermanently
            }
        }
        let delay = policy.delay(afterFailures: failures.count)
        backoffUntil = now + delay.nanoseconds
        return .backoff(delay: delay, until: backoffUntil!)
    }

    /// An activation answered: the count starts over. Returns whether there was one to clear.
    mutating func recordSuccess() -> Bool {
        guard !failures.isEmpty else { return false }
        failures.removeAll()
        backoffUntil = nil
        return true
    }

    /// Forgets everything, including a permanent failure.
    mutating func clear() {
        failures.removeAll()
        backoffUntil = nil
        failedPermanentlyAt = nil
    }

    /// The run time before which no launch may happen, if that is after `now`.
    func blockedUntil(now: UInt64) -> UInt64? {
        guard let backoffUntil, backoffUntil > now else { return nil }
        return backoffUntil
    }
}

import Glibc

/// Why a process that the host did not kill ended, when the kernel ended it on the host's
/// behalf: the cgroup's OOM killer, RLIMIT_CPU, RLIMIT_FSIZE or the seccomp filter's SIGSYS.
/// Nil for its own end (an exit, a crash).
struct ExitClassification: Equatable {
    let reason: KillReason
    /// The `killed` event's detail.
    let detail: String

    init(reason: KillReason, detail: String) {
        self.reason = reason
        self.detail = detail
    }

    /// `record` is how it ended; `oomKilled`, whether its cgroup counted an OOM kill since its
    /// spawn; `policy` and `budgets`, the limits it ran under.
    init?(_ record: ExitRecord, oomKilled: Bool, policy: SandboxPolicy, budgets: Budgets) {
        if oomKilled {
            reason = .memory
            detail = "over the \(budgets.memoryBytes >> 10) KiB memory limit (cgroup OOM kill)"
        } else if record.signal == SIGXCPU
            || (record.signal == SIGKILL && record.cpuMilliseconds >= policy.cpuSeconds * 1000 && policy.rlimits)
        {
            reason = .cpu
            detail = "RLIMIT_CPU of \(policy.cpuSeconds) s used up"
        } else if record.signal == SIGXFSZ {
            reason = .resource
            detail = "a file reached the container quota of \(budgets.containerBytes >> 10) KiB (RLIMIT_FSIZE)"
        } else if let violation = record.sandboxViolation {
            reason = .sandboxViolation
            detail = violation
        } else {
            return nil
        }
    }
}

/// Why the host (or the kernel on its behalf) killed an extension. The raw values are the
/// event log's `killed.reason`.
public enum KillReason: String, Sendable, Hashable, CaseIterable {
    /// An activation (or the launch) ran over its wall-clock budget.
    case timeBudget
    /// Resident memory went over the budget (cgroup OOM kill or the watchdog).
    case memory
    /// RLIMIT_CPU ran out.
    case cpu
    /// The extension broke the IPC protocol: oversize, unknown, malformed or out-of-order frames.
    case protocolViolation
    /// Nothing to do for the idle budget after its last activation.
    case idle
    /// Killed on purpose by chaos testing.
    case chaos
    /// The host is shutting down.
    case hostShutdown
    /// A second process claimed a background session identifier that was already live.
    case sessionConflict
    /// Over a budget other than time, memory and CPU: the container's quota (bytes or files), the
    /// bytes or rate of messages it may send, or data the host had for it that it did not read.
    case resource
    /// The kernel killed it for a call the sandbox forbids outright (SIGSYS: a system call of
    /// another architecture).
    case sandboxViolation
}

import CSandbox
import Glibc

/// How a process ended, from its wait status and rusage.
public struct ExitRecord: Sendable, Hashable {
    /// The process that ended.
    public var pid: Int32
    /// The exit status, when it exited.
    public var status: Int32?
    /// The signal, when it was killed by one.
    public var signal: Int32?
    /// User + system CPU time.
    public var cpuMilliseconds: UInt64
    /// Peak memory of the process: from its cgroup (resident and page cache charged to it) where
    /// one is used, else the highest VmHWM the host read. (`ru_maxrss` of an exec'd child includes
    /// the image before exec — the host's — so it is not used.)
    public var peakRSSKiB: UInt64
    /// Why the host killed it, if it did.
    public var killReason: KillReason?

    /// What the process did that the sandbox forbids, when the kernel killed it for that: SIGSYS
    /// is the seccomp filter's kill, for a system call of another architecture. (A process can
    /// raise SIGSYS itself; it then gets the same record, which is no loss: it asked for it.)
    public var sandboxViolation: String? {
        signal == SIGSYS ? "made a system call of another architecture (i386 int 0x80 or x32), which the sandbox forbids" : nil
    }

    /// `exited 0`, `SIGKILL`, …
    public var summary: String {
        if let signal { return signalName(signal) }
        return "exit status \(status ?? -1)"
    }
}

/// The conventional name of a signal number (`SIGKILL`).
func signalName(_ signal: Int32) -> String {
    let names: [Int32: String] = [
        1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS",
        8: "SIGFPE", 9: "SIGKILL", 10: "SIGUSR1", 11: "SIGSEGV", 12: "SIGUSR2", 13: "SIGPIPE",
        14: "SIGALRM", 15: "SIGTERM", 24: "SIGXCPU", 25: "SIGXFSZ", 31: "SIGSYS"
    ]
    return names[signal] ?? "signal \(signal)"
}

import CSandbox

/// What an idle extension process has done, as the container sweep compares it between two
/// measures: its CPU time (its process CPU clock, exact — /proc's ticks are 10 ms, one of which
/// writes megabytes) and the bytes it has passed to write calls (`wchar` of /proc/<pid>/io: an
/// O_DIRECT write costs next to no CPU).
struct ProcessActivity: Sendable, Equatable {
    var cpuNanoseconds: UInt64
    var writtenBytes: UInt64

    /// The CPU time a process may use since its last measure and still count as idle: what an
    /// extension does as its activation ends (its threads' last work), about a millisecond.
    static let cpuNoise: UInt64 = 1_000_000

    /// The activity of process `pid` now, or nil when it cannot be read.
    static func of(_ pid: pid_t) -> ProcessActivity? {
        let cpu = sg_process_cpu_ns(pid)
        let written = sg_process_written_bytes(pid)
        guard cpu >= 0, written >= 0 else { return nil }
        return ProcessActivity(cpuNanoseconds: UInt64(cpu), writtenBytes: UInt64(written))
    }

    /// Whether nothing since `last` can have written to a container: no byte written, and less
    /// than ``cpuNoise`` of CPU (a file's pages dirtied through a mapping cost CPU).
    func isIdle(since last: ProcessActivity) -> Bool {
        writtenBytes == last.writtenBytes && cpuNanoseconds &- last.cpuNanoseconds < Self.cpuNoise
    }
}

import Foundation
import Glibc

/// Readings of a process from /proc, for the density figure.
enum ProcessStats {
    /// Resident set size in KiB (`VmRSS` of /proc/PID/status; `self` for this process).
    static func residentKiB(_ pid: String = "self") -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }

    /// utime + stime of /proc/PID/stat (every thread), in clock ticks.
    static func cpuTicks(_ pid: String = "self") -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)": state is field 3; utime and stime are fields 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let utime = Int(fields[11]), let stime = Int(fields[12]) else { return nil }
        return utime + stime
    }

    /// This process's CPU time (every thread) in nanoseconds: CLOCK_PROCESS_CPUTIME_ID.
    static func cpuNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Clock ticks per second (`sysconf(_SC_CLK_TCK)`).
    static var ticksPerSecond: Double { Double(sysconf(Int32(_SC_CLK_TCK))) }

    /// The soft limit on open descriptors.
    static var openFileLimit: UInt64 {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        return UInt64(limit.rlim_cur)
    }

    /// Open descriptors of this process.
    static var openFiles: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
    }

    /// `MemAvailable` of /proc/meminfo, in KiB.
    static var memoryAvailableKiB: Int? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("MemAvailable:") })
        else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
}

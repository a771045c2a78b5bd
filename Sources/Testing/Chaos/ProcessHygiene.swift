import Foundation
import Glibc
import SandglassHost

/// What a process leaves behind: its open descriptors and its zombie children. `sandglass
/// stress` measures the host against these after each clean shutdown.
public enum ProcessHygiene {
    /// Makes the process-wide parts of the runtime that a host's work brings into being on
    /// demand, and that live as long as the process, exist now — libdispatch's and the
    /// concurrency runtime's timers — so that a descriptor baseline taken afterwards counts only
    /// what a host opens. Nothing of the host's own is made here: its HTTP clients' event loop is
    /// its own and must be gone after its shutdown.
    public static func prepareBaseline() {
        // libdispatch's timer descriptors, one per clock, each made at its clock's first timer
        // (Task.sleep, asyncAfter): the uptime clock's, and the wall clock's (a deadline on a
        // `DispatchWallTime`, which Foundation may take for a `Date`).
        let fired = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(1)) { fired.signal() }
        fired.wait()
        DispatchQueue.global().asyncAfter(wallDeadline: .now() + .milliseconds(1)) { fired.signal() }
        fired.wait()
        // …and those of the concurrency runtime's clocks (Task.sleep).
        Task.detached {
            try? await Task.sleep(for: .milliseconds(1))
            try? await Task.sleep(until: .now + .milliseconds(1), clock: .suspending)
            try? await Task.sleep(nanoseconds: 1_000_000)
            fired.signal()
        }
        fired.wait()
    }

    /// This process's open descriptors and what each refers to (`socket:[123]`, a path …).
    public static func openDescriptors() -> [Int32: String] {
        var result: [Int32: String] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let fd = Int32(entry) else { continue }
            var target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")) ?? "?"
            // Which clock a timer descriptor is on (0 realtime, 1 monotonic, 7 boottime): whose it is.
            if target == "anon_inode:[timerfd]",
                let info = try? String(contentsOfFile: "/proc/self/fdinfo/\(entry)", encoding: .utf8),
                let clock = info.split(separator: "\n").first(where: { $0.hasPrefix("clockid:") })
            {
                target += " " + clock.replacingOccurrences(of: "\t", with: " ")
            }
            result[fd] = target
        }
        return result
    }

    /// Children of `parent` (this process by default) that have exited and not been reaped.
    public static func zombieChildren(of parent: Int32 = getpid()) -> [Int32] {
        children(of: parent).filter { $0.state == "Z" }.map(\.pid)
    }

    /// Every child of `parent` with its state letter (`R`, `S`, `Z` …), from /proc.
    public static func children(of parent: Int32 = getpid()) -> [(pid: Int32, state: Character)] {
        var result: [(Int32, Character)] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), let (state, ppid) = status(of: pid), ppid == parent else { continue }
            result.append((pid, state))
        }
        return result.sorted { $0.0 < $1.0 }
    }

    /// The state letter and parent of `pid`, `nil` when it does not exist.
    public static func status(of pid: Int32) -> (state: Character, parent: Int32)? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // pid (comm) state ppid …; comm may hold spaces and parentheses: read after the last ')'.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 1, let state = fields[0].first, let ppid = Int32(fields[1]) else { return nil }
        return (state, ppid)
    }

    /// Whether `pid` exists (alive or a zombie).
    public static func exists(_ pid: Int32) -> Bool {
        Glibc.kill(pid, 0) == 0 || errno != ESRCH
    }
}

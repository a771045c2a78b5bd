import CSandbox
import Glibc

/// A real child, killed and signalled through its pidfd (so a reaped child's reused pid is never
/// signalled), reaped with `wait4`, its threads read from /proc. Confined to the host's loop thread.
final class PidfdControl: ProcessControl {
    let pid: pid_t
    let pidfd: Int32

    init(pid: pid_t, pidfd: Int32) {
        self.pid = pid
        self.pidfd = pidfd
    }

    /// Sends SIGKILL through the pidfd, then to the process group (the child made its own).
    func kill() {
        _ = sg_pidfd_send_signal(pidfd, SIGKILL)
        _ = Glibc.kill(-pid, SIGKILL)
    }

    func signal(_ signal: Int32) {
        _ = sg_pidfd_send_signal(pidfd, signal)
    }

    func reap() -> ReapOutcome {
        var status: Int32 = 0
        var cpuMs: UInt64 = 0
        var rssKiB: UInt64 = 0
        let rc = sg_reap(pid, &status, &cpuMs, &rssKiB)
        if rc == 1 { return .ended(status: status, cpuMilliseconds: cpuMs, peakRSSKiB: rssKiB) }
        if rc == -ECHILD { return .reapedElsewhere }
        return rc < 0 ? .failed(errno: -rc) : .running
    }

    /// True when none of the process's threads is running or runnable (state `R`, or `D` in
    /// uninterruptible I/O).
    func threadsAreIdle() -> Bool {
        guard let dir = opendir("/proc/\(pid)/task") else { return true }
        defer { closedir(dir) }
        var buffer = [UInt8](repeating: 0, count: 512)
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let tid = Int32(name) else { continue }
            let fd = open("/proc/\(pid)/task/\(tid)/stat", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            Glibc.close(fd)
            guard n > 0 else { continue }
            // pid (comm) STATE …; comm may hold spaces and parentheses: the state follows the last ')'.
            guard let close = buffer[0..<n].lastIndex(of: UInt8(ascii: ")")), close + 2 < n else { continue }
            let state = buffer[close + 2]
            if state == UInt8(ascii: "R") || state == UInt8(ascii: "D") { return false }
        }
        return true
    }

    func close() {
        Glibc.close(pidfd)
    }
}

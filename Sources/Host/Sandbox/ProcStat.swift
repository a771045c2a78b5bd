import Glibc

/// A process's `/proc/PID/stat`, read by descriptor: the fields after `pid (comm)`, the state
/// first (then ppid, pgrp, … utime at 11, stime at 12). `comm` is the process's own choice and
/// may hold spaces and parentheses, so the fields follow its last `)`.
package enum ProcStat {
    /// The fields of process `pid`, or nil when it is gone.
    package static func fields(of pid: pid_t) -> [Substring]? {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0, let close = buffer[0..<n].lastIndex(of: UInt8(ascii: ")")) else { return nil }
        return String(decoding: buffer[(close + 1)..<n], as: UTF8.self).split(separator: " ")
    }
}

// What each extension of Misbehaving.app does wrong; the behaviour is chosen by the last
// component of its bundle identifier (SANDGLASS_BUNDLE_IDENTIFIER, set by the host).

import CMisbehaviour
import Dispatch
import Foundation
import WidgetKit

#if canImport(Glibc)
import Glibc
#endif

enum Misbehaviour: String, CaseIterable {
    /// fork() in a loop, then threads until the pids limit stops them.
    case forkbomb
    /// getTimeline spins on the CPU forever.
    case busyloop
    /// getTimeline sleeps forever.
    case sleeper
    /// getTimeline returns without ever calling its completion.
    case nevercompletes
    /// getTimeline calls its completion twice.
    case doublecompletion
    /// Writes a frame of 2 MiB (over the 1 MiB limit) to the host's socket.
    case oversized
    /// Sends a frame out of protocol order: a pong for a ping the host never sent.
    case outoforder
    /// Tries to write outside its container: /tmp, the host's data directory, /etc.
    case writesoutside
    /// ptrace: PTRACE_TRACEME and PTRACE_ATTACH to its parent.
    case ptrace
    /// execve of another binary (/bin/sh).
    case exec
    /// Clears its parent-death signal, ignores SIGPIPE, blocks in an atexit handler and sleeps
    /// in getTimeline: it means to outlive its host (Outliving.app).
    case outliveshost
    /// A system call through the i386 entry point, `int $0x80` (Hostile.app).
    case int80
    /// Writes 1 MiB files into its container until a write fails (Hostile.app, over its quota).
    case fillscontainer
    /// Writes one 1 MiB file into its container (Hostile.app, under its quota).
    case writesalittle
    /// Writes one file past its container quota (Hostile.app): RLIMIT_FSIZE stops it.
    case bigfile
    /// Answers at once, then fills its container from another thread while idle (Hostile.app).
    case idlewriter
    /// Writes 8 MiB into files it has unlinked and keeps open, then answers (Hostile.app, over
    /// its 4 MiB quota): on the disk, in no directory.
    case hiddenwriter
    /// Writes 1 MiB files into its app group's container until a write fails (Hostile.app): the
    /// group is a container it shares, under the same quota as its own.
    case fillsgroup

    static var current: Misbehaviour? {
        let identifier = ProcessInfo.processInfo.environment["SANDGLASS_BUNDLE_IDENTIFIER"] ?? ""
        return Misbehaviour(rawValue: String(identifier.split(separator: ".").last ?? ""))
    }
}

/// The descriptors of the files `hiddenwriter` unlinked, kept open for the life of the process.
nonisolated(unsafe) var hiddenFiles: [Int32] = []

/// One line to standard error (the host records it as a `log` event).
func report(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

func errnoText(_ code: Int32) -> String {
    "errno \(code) (\(String(cString: strerror(code))))"
}

/// Writes `bytes` straight to the IPC descriptor, past the SDK.
func writeToHost(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes { write(3, $0.baseAddress, $0.count) }
        if n <= 0 { report("writing to fd 3 failed: \(errnoText(errno))"); return }
        offset += n
    }
}

/// The misbehaviours that happen inside getTimeline before (or instead of) its completion;
/// returns what it did, for the entry, or nil when it never returns.
func misbehave(_ behaviour: Misbehaviour) -> String {
    switch behaviour {
    case .forkbomb:
        var denied = 0
        for _ in 0..<64 {
            let pid = fork()
            if pid == 0 { _exit(0) }
            if pid < 0 { denied += 1 } else { var status: Int32 = 0; waitpid(pid, &status, 0) }
        }
        // The threads block reading a pipe until the count is done, then end (closing its
        // write end wakes them), so that the completion can still be sent.
        var release: [Int32] = [-1, -1]
        _ = pipe(&release)
        var threads: [pthread_t] = []
        var failure = ""
        while threads.count < 4096 {
            var thread = pthread_t()
            let fd = UnsafeMutableRawPointer(bitPattern: Int(release[0]) + 1)
            let rc = pthread_create(
                &thread, nil,
                { fd in
                    var byte: UInt8 = 0
                    _ = read(Int32(Int(bitPattern: fd) - 1), &byte, 1)
                    return nil
                }, fd)
            if rc != 0 { failure = errnoText(rc); break }
            threads.append(thread)
        }
        close(release[1])
        for thread in threads { pthread_join(thread, nil) }
        close(release[0])
        let line = "fork bomb: \(denied) of 64 forks refused; \(threads.count) threads before pthread_create failed: \(failure)"
        report(line)
        return line
    case .busyloop:
        var x: UInt64 = 1
        while true { x = x &* 6364136223846793005 &+ 1442695040888963407; if x == 0 { break } }
        return "unreachable \(x)"
    case .sleeper:
        while true { sleep(1_000_000) }
    case .writesoutside:
        var results: [String] = []
        let container = ProcessInfo.processInfo.environment["SANDGLASS_CONTAINER"] ?? "/nonexistent"
        let targets = [
            "/tmp/sandglass-escape-\(getpid())", container + "/../escape-\(getpid())",
            "/etc/sandglass-escape-\(getpid())", container + "/Documents/inside"
        ]
        for path in targets {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            if fd >= 0 {
                close(fd)
                results.append("\(path): written")
            } else {
                results.append("\(path): \(errnoText(errno))")
            }
        }
        let line = "writes: " + results.joined(separator: "; ")
        report(line)
        return line
    case .ptrace:
        let traceme = misbehave_ptrace_traceme()
        let attach = misbehave_ptrace_attach(getppid())
        let line =
            "ptrace(PTRACE_TRACEME): \(traceme == 0 ? "allowed" : errnoText(-traceme)); ptrace(PTRACE_ATTACH, parent): \(attach == 0 ? "allowed" : errnoText(-attach))"
        report(line)
        return line
    case .exec:
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup("echo escaped the sandbox"), nil]
        execve("/bin/sh", argv, environ)
        let line = "execve(/bin/sh) failed: \(errnoText(errno))"
        report(line)
        return line
    case .oversized:
        // Length 2 MiB + 1, type timelineReply (0x21), then junk: far over the 1 MiB limit.
        writeToHost([0x00, 0x20, 0x00, 0x01, 0x21] + [UInt8](repeating: 0xAB, count: 64 * 1024))
        return "oversized frame written"
    case .outoforder:
        // A pong (0x43) for ping 7, which the host never sent.
        writeToHost([0x00, 0x00, 0x00, 0x02, 0x43, 0x07])
        return "out-of-order frame written"
    case .outliveshost:
        let cleared = misbehave_clear_parent_death_signal()
        misbehave_refuse_to_exit()
        report(
            "outliving: clearing the parent-death signal: \(cleared == 0 ? "allowed" : errnoText(-cleared)); in force: \(misbehave_parent_death_signal())"
        )
        while true { sleep(1_000_000) }
    case .int80:
        let pid = misbehave_int80_getpid()
        let line = "int 0x80 returned \(pid)"
        report(line)
        return line
    case .idlewriter:
        let container = ProcessInfo.processInfo.environment["SANDGLASS_CONTAINER"] ?? "/nonexistent"
        Thread.detachNewThread {
            usleep(300_000)
            let chunk = [UInt8](repeating: 0x5A, count: 1 << 20)
            for n in 0..<64 {
                let fd = open(container + "/Documents/idle-\(n)", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                if fd < 0 { break }
                _ = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
                usleep(50_000)
            }
        }
        return "answered; writing while idle"
    case .hiddenwriter:
        let container = ProcessInfo.processInfo.environment["SANDGLASS_CONTAINER"] ?? "/nonexistent"
        let chunk = [UInt8](repeating: 0x5A, count: 1 << 20)
        var written = 0
        for n in 0..<8 {
            let path = container + "/Documents/hidden-\(n)"
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard fd >= 0 else { break }
            unlink(path)
            if chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == chunk.count { written += 1 }
            hiddenFiles.append(fd) // kept open: the blocks stay taken
        }
        let line = "\(written) MiB in unlinked files, held open"
        report(line)
        return line
    case .bigfile:
        let container = ProcessInfo.processInfo.environment["SANDGLASS_CONTAINER"] ?? "/nonexistent"
        let fd = open(container + "/Documents/big", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let chunk = [UInt8](repeating: 0x5A, count: 1 << 20)
        var written = 0
        while fd >= 0 && written < 16 {
            guard chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == chunk.count else { break }
            written += 1
        }
        let line = "one file of \(written) MiB"
        report(line)
        return line
    case .fillscontainer, .writesalittle, .fillsgroup:
        let container =
            behaviour == .fillsgroup
            ? FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.hostile")?.path ?? "/nonexistent"
            : (ProcessInfo.processInfo.environment["SANDGLASS_CONTAINER"] ?? "/nonexistent") + "/Documents"
        let chunk = [UInt8](repeating: 0x5A, count: 1 << 20)
        var written = 0
        var failure = ""
        for n in 0..<(behaviour == .writesalittle ? 1 : 64) {
            let fd = open(container + "/fill-\(n)", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            if fd < 0 { failure = errnoText(errno); break }
            let ok = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == chunk.count
            if !ok { failure = errnoText(errno) }
            fsync(fd)
            close(fd)
            if !ok { break }
            written += 1
        }
        let line = "wrote \(written) MiB\(failure.isEmpty ? "" : "; then \(failure)")"
        report(line)
        return line
    case .nevercompletes, .doublecompletion:
        return "\(behaviour.rawValue)"
    }
}

import CSandbox
import Foundation
import Glibc

/// A host process of a stress run (`sandglass stress-worker …`), spawned with `posix_spawn` and
/// held by a pidfd, so that a SIGKILL can never reach a recycled pid: its standard output comes
/// back as lines, its standard error goes to a file.
final class WorkerProcess: @unchecked Sendable {
    let pid: pid_t
    private let pidfd: Int32
    private let output: Int32

    init(executable: String, arguments: [String], standardError: String) throws {
        var fds: [Int32] = [-1, -1]
        guard sg_pipe(&fds) == 0 else { throw BadInput("cannot make a pipe for the host process: \(String(cString: strerror(errno)))") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(fds[1])
        guard rc == 0 else {
            close(fds[0])
            throw BadInput("cannot start \(executable): \(String(cString: strerror(rc)))")
        }
        self.pid = pid
        self.output = fds[0]
        self.pidfd = sg_pidfd_open(pid)
    }

    /// SIGKILL, through the pidfd.
    func kill() {
        _ = sg_pidfd_send_signal(pidfd, SIGKILL)
    }

    /// Calls `line` with each line the process writes, until it closes its output; then waits
    /// for it and returns its wait status. Blocks: run it off the cooperative pool.
    func run(line: (String) -> Void) -> Int32 {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            pending += buffer[0..<n]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                line(String(decoding: pending[..<newline], as: UTF8.self))
                pending.removeSubrange(...newline)
            }
        }
        close(output)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        close(pidfd)
        return status
    }
}

/// Waits up to `milliseconds` for child `pid` (an orphan handed to this subreaper) to end, and
/// reaps it. False when it was still alive at the deadline.
func reapOrphan(_ pid: pid_t, milliseconds: Int32) -> Bool {
    let pidfd = sg_pidfd_open(pid)
    if pidfd >= 0 {
        var poller = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
        while poll(&poller, 1, milliseconds) < 0 && errno == EINTR {}
        close(pidfd)
    }
    var status: Int32 = 0
    return waitpid(pid, &status, WNOHANG) == pid
}

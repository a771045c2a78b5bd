import CSandbox
import Foundation
import Glibc

/// A child started with `posix_spawn` — nothing of Sandglass in the path — for the baselines.
/// glibc's `posix_spawn` clones with `CLONE_VM | CLONE_VFORK`, the shape the host's own spawn has.
struct RawChild {
    let pid: pid_t

    /// Spawns `path` with `arguments` and `environment`; `stdin`, `stdout` and `fd3`, when given,
    /// become its descriptors 0, 1 and 3 (the others: inherited 0 to 2, nothing else — the
    /// benchmark's own descriptors are close-on-exec).
    static func spawn(
        _ path: String, arguments: [String] = [], environment: [String] = [],
        stdin: Int32? = nil, stdout: Int32? = nil, fd3: Int32? = nil
    ) throws -> RawChild {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin { posix_spawn_file_actions_adddup2(&actions, stdin, 0) }
        if let stdout { posix_spawn_file_actions_adddup2(&actions, stdout, 1) }
        if let fd3 { posix_spawn_file_actions_adddup2(&actions, fd3, 3) }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard rc == 0 else { throw BadInput("posix_spawn \(path) failed: errno \(rc)") }
        return RawChild(pid: pid)
    }

    /// Waits for the child to end (blocking) and returns its raw wait status.
    @discardableResult
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }
}

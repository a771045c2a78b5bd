import CSandbox
import Glibc

/// What to spawn and under which limits.
struct SpawnRequest {
    var executable: String
    var arguments: [String]
    var environment: [String: String]
    var workingDirectory: String
    var policy: SandboxPolicy
    var memoryBytes: Int
    var seccomp: SeccompProgram?
    var landlockRuleset: Int32?
    var cgroup: ExtensionCgroup?
    /// The uid and gid to run as; nil: the host's.
    var user: ExtensionIdentity?
    /// Supplementary groups of `user` (the app groups it shares); with `user` only.
    var supplementaryGroups: [UInt32] = []
    /// An open `/dev/null` for stdin.
    var devNull: Int32
    /// The namespaces to join; nil: the host's.
    var namespaces: ExtensionNamespaces? = nil
}

/// A child that exec'd: its pid, the pidfd to wait and kill with, and the host's ends of its
/// IPC socket (fd 3 in the child) and of its stdout/stderr pipe.
struct SpawnedProcess {
    let pid: pid_t
    let pidfd: Int32
    let channelFD: Int32
    let outputFD: Int32
    /// The seccomp notification listener, when the filter reports denials.
    let listenerFD: Int32?
    /// In the child: joining the cgroups, and every step from clone to execve (nanoseconds).
    var cgroupJoinNanoseconds: UInt64 = 0
    var setupNanoseconds: UInt64 = 0
}

/// The sandboxed spawn: a thin Swift layer over `sg_spawn` in CSandbox.
enum Spawner {
    /// Spawns `request`. Call on the host's loop thread (long-lived: PR_SET_PDEATHSIG follows it).
    static func spawn(_ request: SpawnRequest) throws(SandboxError) -> SpawnedProcess {
        var ipc: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        guard sg_socketpair_stream(&ipc) == 0 else { throw SandboxError(.channel, errno: errno, "IPC socketpair") }
        guard sg_pipe(&output) == 0 else {
            let e = errno
            close(ipc[0]); close(ipc[1])
            throw SandboxError(.channel, errno: e, "log pipe")
        }
        var cgroupFDs: [Int32] = []
        if let cgroup = request.cgroup {
            do { cgroupFDs = try cgroup.openProcsFiles() } catch {
                [ipc[0], ipc[1], output[0], output[1]].forEach { close($0) }
                throw error
            }
        }
        defer { cgroupFDs.forEach { close($0) } }

        let policy = request.policy
        var limits = sg_rlimits()
        if policy.rlimits {
            limits.cpu_seconds = policy.cpuSeconds
            limits.data_bytes = policy.dataLimit(memoryBytes: request.memoryBytes)
            limits.open_files = policy.openFiles
            limits.file_size_bytes = policy.fileSizeBytes
            limits.no_priority = 1
            // A uid of its own — not one extensions share, nor the host's: its threads counted by
            // the kernel too (RLIMIT_NPROC counts every task of the uid, system-wide).
            if request.user != nil && policy.extensionUser.isPerExtension { limits.tasks = UInt64(policy.maxTasks) }
        }
        let environment = request.environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        var result = sg_spawn_result()
        let bpf = request.seccomp?.bytes ?? []
        let rc = withCStrings([request.executable] + request.arguments) { argv in
            withCStrings(environment) { envp in
                bpf.withUnsafeBytes { bpfBytes in
                    cgroupFDs.withUnsafeBufferPointer { cgroupBuffer in
                        request.supplementaryGroups.withUnsafeBufferPointer { groups in
                            request.executable.withCString { path in
                                request.workingDirectory.withCString { cwd in
                                    var req = sg_spawn_request()
                                    req.path = path
                                    req.argv = UnsafePointer(OpaquePointer(argv.baseAddress))
                                    req.envp = UnsafePointer(OpaquePointer(envp.baseAddress))
                                    req.cwd = cwd
                                    req.stdin_fd = request.devNull
                                    req.stdout_fd = output[1]
                                    req.stderr_fd = output[1]
                                    req.ipc_fd = ipc[1]
                                    req.limits = limits
                                    req.bpf = bpf.isEmpty ? nil : bpfBytes.baseAddress
                                    req.bpf_len = bpf.count
                                    req.bpf_wants_listener = (request.seccomp?.usesNotifications ?? false) ? 1 : 0
                                    req.landlock_ruleset_fd = request.landlockRuleset ?? -1
                                    req.cgroup_procs_fds = cgroupBuffer.baseAddress
                                    req.cgroup_procs_count = Int32(cgroupBuffer.count)
                                    req.new_process_group = policy.isolation ? 1 : 0
                                    req.parent_death_signal = policy.isolation ? SIGKILL : 0
                                    req.uid = request.user.map { Int32(bitPattern: $0.uid) } ?? -1
                                    req.gid = request.user.map { Int32(bitPattern: $0.gid) } ?? -1
                                    req.supplementary_gids = groups.baseAddress
                                    req.supplementary_gid_count = Int32(groups.count)
                                    req.mount_ns_fd = request.namespaces?.mountNamespace ?? -1
                                    req.net_ns_fd = request.namespaces?.networkNamespace ?? -1
                                    return sg_spawn(&req, &result)
                                }
                            }
                        }
                    }
                }
            }
        }
        close(ipc[1])
        close(output[1])
        guard rc == 0 else {
            close(ipc[0])
            close(output[0])
            let step = String(cString: sg_spawn_step_name(result.failed_step))
            throw SandboxError(.spawn(step: step), errno: result.failed_errno, request.executable)
        }
        _ = sg_set_nonblocking(ipc[0])
        _ = sg_set_nonblocking(output[0])
        if result.listener_fd >= 0 { _ = sg_set_nonblocking(result.listener_fd) }
        return SpawnedProcess(
            pid: result.pid,
            pidfd: result.pidfd,
            channelFD: ipc[0],
            outputFD: output[0],
            listenerFD: result.listener_fd >= 0 ? result.listener_fd : nil,
            cgroupJoinNanoseconds: result.cgroup_join_ns,
            setupNanoseconds: result.setup_ns
        )
    }
}

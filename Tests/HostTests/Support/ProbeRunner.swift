import CSandbox
import Foundation
import Glibc

@testable import SandglassHost

/// The build directory of the running tests (where `sandbox-probe` was built).
enum BuildProducts {
    static var directory: String {
        if let dir = testEnvironment["SANDGLASS_BUILD_DIR"] { return dir }
        var candidate = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        if candidate.pathExtension == "xctest" { candidate.deleteLastPathComponent() }
        if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("sandbox-probe").path) { return candidate.path }
        let exe = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "")
        return exe.deletingLastPathComponent().path
    }

    static var probe: String { directory + "/sandbox-probe" }
}

/// What a probe run printed and how it ended.
struct ProbeResult {
    var lines: [String]
    var status: Int32?
    var signal: Int32?
    var denials: [String]
    var killedForMemory: Bool

    /// The value of `key=value` in the output.
    func value(_ key: String) -> String? {
        for line in lines {
            for pair in line.split(separator: " ") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                if kv.count == 2, kv[0] == key { return String(kv[1]) }
            }
        }
        return nil
    }

    func int(_ key: String) -> Int? { value(key).flatMap { Int($0) } }
}

/// Runs `sandbox-probe ACTION` under the sandbox from a long-lived loop thread (as the host
/// does: PR_SET_PDEATHSIG follows the spawning thread), answering its seccomp notifications.
actor ProbeRunner {
    nonisolated let loop: EventLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }
    private var sandbox: Sandbox?
    let container: String
    /// The directory holding `Containers/` (shared by runners made with `sharing:`) and `bin/`.
    nonisolated let root: String
    private let ownsRoot: Bool
    /// The uid and gid the probe runs as under `ExtensionUser.automatic` (nil: not root).
    nonisolated let identity: ExtensionIdentity?
    private let groupName = "probe-\(UUID().uuidString.prefix(8))"
    /// The group's OOM kills after the last run (the group lives as long as the runner): read
    /// before a run, not after its spawn, which a child over its limit can outrun.
    private var oomKills = 0

    /// A copy of the probe the extension user can reach wherever the repository lives.
    let probe: String

    /// A runner of a probe as extension `identifier`, with its container made as the host makes
    /// it; `sharing` another runner puts both containers side by side, each with its own uid
    /// (two extensions of one host).
    init(identifier: String = "probe", sharing other: ProbeRunner? = nil) throws {
        loop = try EventLoop(name: "probe-runner")
        root = other?.root ?? FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString.prefix(8))").path
        ownsRoot = other == nil
        if ownsRoot { try FileManager.default.createDirectory(atPath: root + "/bin", withIntermediateDirectories: true) }
        let containers = root + "/Containers"
        identity =
            getuid() == 0
            ? try ExtensionIdentities(range: SandboxPolicy.standard.identityRange, containersRoot: containers).identity(for: identifier)
            : nil
        container = try ContainerDirectory.prepare(root: containers, identifier: identifier, owner: identity).path
        probe = root + "/bin/sandbox-probe"
        guard ownsRoot else { return }
        // A hard link, not a copy: a copy's write descriptor, inherited by a process another test
        // spawns at that moment, would make our execve fail with ETXTBSY.
        do { try FileManager.default.linkItem(atPath: BuildProducts.probe, toPath: probe) } catch {
            try FileManager.default.copyItem(atPath: BuildProducts.probe, toPath: probe)
        }
    }

    func run(
        _ arguments: [String], policy: SandboxPolicy = .standard, memoryBytes: Int = 30 << 20,
        timeout: Duration = .seconds(10)
    ) throws -> ProbeResult {
        if sandbox == nil || sandbox!.policy != policy {
            sandbox?.close()
            sandbox = try Sandbox(policy: policy)
            oomKills = 0
        }
        let (spawned, cgroup) = try sandbox!.spawn(
            executable: probe, arguments: arguments,
            environment: ["HOME": container, "TMPDIR": container + "/tmp", "PATH": "/usr/bin:/bin"],
            container: container, executableRoot: URL(fileURLWithPath: probe).deletingLastPathComponent().path,
            user: policy.extensionUser.isPerExtension ? identity : policy.extensionUser.sharedCredentials,
            memoryBytes: memoryBytes, group: groupName)
        defer {
            close(spawned.channelFD)
            close(spawned.outputFD)
            if let l = spawned.listenerFD { close(l) }
            close(spawned.pidfd)
        }
        var output: [UInt8] = []
        var denials: [String] = []
        let deadline = sg_monotonic_ns() + timeout.nanoseconds
        var exited = false
        while !exited {
            var fds = [
                pollfd(fd: spawned.pidfd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: spawned.outputFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: spawned.listenerFD ?? -1, events: Int16(POLLIN), revents: 0)
            ]
            let now = sg_monotonic_ns()
            if now >= deadline { _ = sg_pidfd_send_signal(spawned.pidfd, SIGKILL) }
            _ = poll(&fds, 3, Int32(max(1, (deadline > now ? deadline - now : 0) / 1_000_000)))
            if fds[1].revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = buffer.withUnsafeMutableBytes { read(spawned.outputFD, $0.baseAddress, $0.count) }
                if n > 0 { output += buffer[0..<n] }
            }
            if fds[2].revents & Int16(POLLIN) != 0, let listener = spawned.listenerFD {
                var note = sg_notification()
                if sg_notify_receive(listener, &note) == 0 {
                    var name = [CChar](repeating: 0, count: 64)
                    sg_syscall_name(note.syscall_nr, &name, 64)
                    let syscall = name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                    denials.append(syscall)
                    _ = sg_notify_deny(listener, note.id, SeccompProgram.errno(forDenied: syscall))
                }
            }
            if fds[0].revents != 0 { exited = true }
        }
        // Drain what is left of the output.
        while true {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = buffer.withUnsafeMutableBytes { read(spawned.outputFD, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            output += buffer[0..<n]
        }
        var status: Int32 = 0, cpu: UInt64 = 0, rss: UInt64 = 0
        while sg_reap(spawned.pid, &status, &cpu, &rss) == 0 { sched_yield() }
        let text = String(decoding: output, as: UTF8.self)
        return ProbeResult(
            lines: text.split(separator: "\n").map(String.init),
            status: sg_wifexited(status) != 0 ? sg_wexitstatus(status) : nil,
            signal: sg_wifsignaled(status) != 0 ? sg_wtermsig(status) : nil,
            denials: denials,
            killedForMemory: recordOOMKills(cgroup))
    }

    /// Whether the group's OOM killer struck since the last run.
    private func recordOOMKills(_ cgroup: ExtensionCgroup?) -> Bool {
        let count = cgroup?.oomKillCount() ?? 0
        defer { oomKills = count }
        return count > oomKills
    }

    func finish() {
        sandbox?.close()
        sandbox = nil
        try? FileManager.default.removeItem(atPath: ownsRoot ? root : container)
    }
}

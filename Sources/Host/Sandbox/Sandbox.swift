import CSandbox
import Glibc

/// The host's sandbox: the policy, the seccomp program compiled once, the cgroups and Landlock
/// rulesets made per extension, and the spawn that puts a child under all of them.
/// Confined to the host's loop thread.
final class Sandbox {
    let policy: SandboxPolicy
    let seccomp: SeccompProgram?
    let cgroups: CgroupController
    let landlockABI: Int
    /// The extensions' namespaces, or why there are none (nil: the policy turns them off).
    let namespaces: Result<ExtensionNamespaces, ExtensionNamespaces.Unavailable>?
    private let devNull: Int32
    private var rulesets: [String: Int32] = [:]
    private var groups: [String: ExtensionCgroup] = [:]
    private var closed = false

    /// A sandbox; `dataDirectory` names the host's cgroups after the data directory it serves.
    init(policy: SandboxPolicy, dataDirectory: String? = nil) throws(SandboxError) {
        self.policy = policy
        cgroups = policy.cgroups ? CgroupController.probe(tag: CgroupController.defaultTag(dataDirectory: dataDirectory)) : .disabled
        if policy.seccomp {
            // Memfds only where a memory cgroup counts them; a file's metadata by path only where
            // the kernel keeps each extension to its own files (a uid of its own).
            seccomp = try SeccompProgram.program(memfds: cgroups.layout != nil, ownUser: policy.extensionUser.isPerExtension).get()
        } else {
            seccomp = nil
        }
        landlockABI = policy.landlock ? Landlock.abi : 0
        devNull = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard devNull >= 0 else { throw SandboxError(.channel, errno: errno, "stdin (/dev/null)") }
        // Last: nothing after it throws, so its descriptors are always the sandbox's to close.
        namespaces = policy.namespaces ? ExtensionNamespaces.make() : nil
    }

    /// What is enforced, for the `run.start` line and the trace.
    var summary: [String: String] {
        [
            "seccomp": seccomp.map { $0.usesNotifications ? "on, denials reported" : "on" } ?? "off",
            "landlock": landlockABI > 0 ? "ABI \(landlockABI)" : (policy.landlock ? "unavailable" : "off"),
            "cgroup": policy.cgroups ? cgroups.summary : "off",
            "memory": memoryEnforcement,
            "rlimits": policy.rlimits ? "on" : "off",
            "namespaces": namespacesSummary,
            "identities": identitiesSummary
        ]
    }

    /// Whether the kernel keeps each extension to its own files and processes by its uid.
    var identitiesSummary: String {
        if policy.extensionUser.isPerExtension {
            return "a uid and gid of its own for each extension (\(policy.identityRange.lowerBound)–\(policy.identityRange.upperBound))"
        }
        let uid = policy.extensionUser.sharedCredentials?.uid ?? geteuid()
        let why = policy.extensionUser.sharedCredentials == nil ? "the host is not root" : "ExtensionUser.id"
        return "none (every extension runs as uid \(uid): \(why))"
    }

    /// Whether extensions join the namespaces that hide the rest of the machine in `/proc`.
    var namespacesSummary: String {
        switch namespaces {
        case nil: "off"
        case .success(let joined):
            joined.procSubset
                ? "mount and network (/proc shows each extension its own processes)"
                : "mount and network (/proc shows each extension its own processes, and the machine's files: no subset=pid before Linux 5.8)"
        case .failure(let why): "unavailable: \(why)"
        }
    }

    /// The namespaces extensions join, when there are.
    private var joinedNamespaces: ExtensionNamespaces? { try? namespaces?.get() }

    /// `cgroup` when a cgroup enforces the memory budget, else `watchdog`.
    var memoryEnforcement: String { cgroups.layout == nil ? "watchdog" : "cgroup" }

    /// Spawns `executable` confined to `container`, as `user` (nil: the host's user); `group`
    /// names its cgroup (one per extension). No file it writes grows past `containerBytes` (its
    /// container quota) or the policy's limit. `sharedDirectories` (its app groups' containers)
    /// may be written too, and `supplementaryGroups` are the gids that open them to `user`.
    func spawn(
        executable: String,
        arguments: [String] = [],
        environment: [String: String],
        container: String,
        executableRoot: String,
        user: ExtensionIdentity?,
        memoryBytes: Int,
        containerBytes: Int? = nil,
        group: String,
        sharedDirectories: [String] = [],
        supplementaryGroups: [UInt32] = []
    ) throws(SandboxError) -> (SpawnedProcess, ExtensionCgroup?) {
        var cgroup: ExtensionCgroup?
        if cgroups.layout != nil {
            if let existing = groups[group] {
                cgroup = existing
                try existing.setMemoryLimit(memoryBytes)
            } else {
                cgroup = try cgroups.makeGroup(name: group, memoryBytes: memoryBytes, maxTasks: policy.maxTasks)
                groups[group] = cgroup
            }
        }
        var ruleset: Int32?
        if landlockABI > 0 {
            let key = ([container, executableRoot] + sharedDirectories).joined(separator: "\u{0}")
            if let fd = rulesets[key] {
                ruleset = fd
            } else {
                let fd = try Landlock.ruleset(
                    writable: [container] + sharedDirectories, executable: [executableRoot], readable: policy.readablePaths,
                    proc: joinedNamespaces?.procPath ?? "/proc")
                rulesets[key] = fd
                ruleset = fd
            }
        }
        let request = SpawnRequest(
            executable: executable,
            arguments: arguments,
            environment: environment,
            workingDirectory: container,
            policy: policy.limitingFileSize(to: containerBytes),
            memoryBytes: memoryBytes,
            seccomp: seccomp,
            landlockRuleset: ruleset,
            cgroup: cgroup,
            user: user,
            supplementaryGroups: user == nil ? [] : supplementaryGroups,
            devNull: devNull,
            namespaces: joinedNamespaces
        )
        return (try Spawner.spawn(request), cgroup)
    }

    /// Releases rulesets and removes the cgroups (after every child was reaped); once.
    func close() {
        guard !closed else { return }
        closed = true
        for fd in rulesets.values { Glibc.close(fd) }
        rulesets.removeAll()
        for group in groups.values { group.remove() }
        groups.removeAll()
        cgroups.removeBase()
        joinedNamespaces?.close()
        Glibc.close(devNull)
    }
}

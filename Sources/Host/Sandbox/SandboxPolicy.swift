import Glibc

/// Which layers of the sandbox are on, and the rlimits. The default is everything on; the
/// benchmark turns layers off one at a time to measure each one's share.
public struct SandboxPolicy: Sendable, Hashable {
    /// The seccomp filter (no internet sockets, no new processes, …).
    public var seccomp = true
    /// Landlock: reads only of the container, the bundle and the system's libraries; writes only
    /// in the container; no exec of other binaries; no TCP.
    public var landlock = true
    /// cgroup memory and pids limits where writable (else the resident-size watchdog).
    public var cgroups = true
    /// rlimits (core 0, cpu, nofile, fsize, data as a loose backstop).
    public var rlimits = true
    /// A session of its own (no controlling terminal), PR_SET_PDEATHSIG, no_new_privs, closed fds:
    /// always on unless `bare`.
    public var isolation = true
    /// The extensions' mount and network namespaces, where the host may make them (root): `/proc`
    /// shows each extension only its own processes, and none of the host's connections.
    public var namespaces = true

    /// RLIMIT_NOFILE.
    public var openFiles: UInt64 = 256
    /// RLIMIT_FSIZE.
    public var fileSizeBytes: UInt64 = 256 << 20
    /// RLIMIT_CPU in seconds over the process's life (SIGXCPU, recorded with reason `cpu`).
    public var cpuSeconds: UInt64 = 300
    /// Tasks (threads) in the pids cgroup.
    public var maxTasks = 256
    /// The user extensions run as.
    public var extensionUser = ExtensionUser.automatic
    /// The uids (and equal gids) `ExtensionUser.automatic` gives extensions, one each, when the
    /// host runs as root. Uids the user database knows are skipped.
    public var identityRange: ClosedRange<UInt32> = 50_000...59_999
    /// The gids of app groups when extensions have uids of their own: one per app and group,
    /// a supplementary group of each extension that declares it. Gids the group database
    /// knows are skipped.
    public var appGroupRange: ClosedRange<UInt32> = 60_000...60_999
    /// More paths extensions may read (and map) beneath, besides their container, their bundle
    /// and the system's libraries: for an operator whose extensions need, say, a font directory.
    public var readablePaths: [String] = []
    /// Interval of the resident-size watchdog when no cgroup enforces memory.
    public var watchdogInterval: Duration = .milliseconds(10)

    public init() {}

    /// Every layer on: the default.
    public static let standard = SandboxPolicy()

    /// No sandbox at all: a plain spawn (the benchmark's baseline; never the default).
    public static var bare: SandboxPolicy {
        var p = SandboxPolicy()
        p.seccomp = false
        p.landlock = false
        p.cgroups = false
        p.rlimits = false
        p.isolation = false
        p.namespaces = false
        p.extensionUser = .host
        return p
    }

    /// This policy with RLIMIT_FSIZE at most `bytes` (a container quota), when given.
    func limitingFileSize(to bytes: Int?) -> SandboxPolicy {
        guard let bytes, bytes > 0 else { return self }
        var policy = self
        policy.fileSizeBytes = min(policy.fileSizeBytes, UInt64(bytes))
        return policy
    }

    /// RLIMIT_DATA for a memory budget: a loose backstop far above it, so that the process is
    /// killed by the cgroup or watchdog (as jetsam does) rather than seeing malloc fail.
    func dataLimit(memoryBytes: Int) -> UInt64 {
        max(UInt64(memoryBytes) * 32, 2 << 30)
    }
}

/// Which user an extension process runs as.
public enum ExtensionUser: Sendable, Hashable {
    /// When the host runs as root, a uid and gid of its own for each extension, from
    /// ``SandboxPolicy/identityRange`` (the owner of its container records it across restarts),
    /// so that the kernel keeps extensions apart (files, signals, rlimits, scheduling). Else the
    /// host's own user, shared by every extension. An extension never runs as root: it could
    /// read every file, and Foundation ignores `HOME` for root, so `FileManager`'s user
    /// directories would not be its container.
    case automatic
    /// The host's own user.
    case host
    /// A given user and group.
    case id(uid: UInt32, gid: UInt32)

    /// Whether each extension gets an identity of its own from the range.
    var isPerExtension: Bool {
        if case .automatic = self { return getuid() == 0 }
        return false
    }

    /// The uid and gid every extension shares, or nil when each has its own (``isPerExtension``)
    /// or they stay the host's user.
    var sharedCredentials: ExtensionIdentity? {
        switch self {
        case .automatic, .host: nil
        case .id(let uid, let gid): ExtensionIdentity(uid: uid, gid: gid)
        }
    }
}

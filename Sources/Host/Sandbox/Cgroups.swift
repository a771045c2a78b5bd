import CSandbox
import Foundation
import Glibc
import Synchronization

/// Finds where this host may create cgroups and makes one per extension.
///
/// Memory and pids limits go to cgroup v2 when the host's own cgroup offers those controllers,
/// else to the v1 `memory` and `pids` hierarchies (this machine), each group made below the
/// host's own cgroup. Where neither is writable, memory falls back to the resident-size watchdog.
struct CgroupController: Sendable {
    enum Layout: Sendable, Hashable {
        case v1(memory: String, pids: String?)
        case v2(String)
    }

    /// Where per-extension groups are made, `nil` when cgroups are unavailable.
    let layout: Layout?
    /// Why cgroups are not used, for the run's `run.start` line.
    let unavailableReason: String?
    /// Groups of dead hosts this probe killed the processes of and removed.
    var reclaimed: [String] = []

    /// Probes the host's cgroups and creates `sandglass-<pid>-<n>` below them (one per host, so
    /// that several hosts in one process — tests, the benchmark — never share or remove each
    /// other's). Groups that hosts now dead left behind are reclaimed first: their processes
    /// killed, the groups removed (``reclaimGroupsOfDeadHosts(in:)``).
    static func probe(tag: String = defaultTag()) -> CgroupController {
        let mounts = CgroupMounts.read()
        let membership = CgroupMounts.membership()
        var reclaimed: [String] = []
        var v2Refusal: String?
        if let v2Root = mounts.v2, let rel = membership.v2 {
            let own = v2Root + rel
            reclaimed += reclaimGroupsOfDeadHosts(in: own)
            switch v2Base(own: own, tag: tag) {
            case .success(let base): return CgroupController(layout: .v2(base), unavailableReason: nil, reclaimed: reclaimed)
            case .failure(let refusal): v2Refusal = refusal.description
            }
        }
        if let memRoot = mounts.v1["memory"], let rel = membership.v1["memory"] {
            reclaimed += reclaimGroupsOfDeadHosts(in: memRoot + (rel == "/" ? "" : rel))
            if let pidsRoot = mounts.v1["pids"], let prel = membership.v1["pids"] {
                reclaimed += reclaimGroupsOfDeadHosts(in: pidsRoot + (prel == "/" ? "" : prel))
            }
            let base = memRoot + (rel == "/" ? "" : rel) + "/" + tag
            if mkdir(base, 0o755) == 0 || errno == EEXIST {
                var pidsBase: String?
                if let pidsRoot = mounts.v1["pids"], let prel = membership.v1["pids"] {
                    let candidate = pidsRoot + (prel == "/" ? "" : prel) + "/" + tag
                    if mkdir(candidate, 0o755) == 0 || errno == EEXIST { pidsBase = candidate }
                }
                return CgroupController(layout: .v1(memory: base, pids: pidsBase), unavailableReason: nil, reclaimed: reclaimed)
            }
            return CgroupController(
                layout: nil, unavailableReason: "cannot create \(base): \(String(cString: strerror(errno)))", reclaimed: reclaimed)
        }
        return CgroupController(
            layout: nil, unavailableReason: v2Refusal ?? "no writable cgroup with a memory controller", reclaimed: reclaimed)
    }

    /// Why a cgroup v2 group cannot hold the extensions' groups.
    struct V2Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// Makes `own/tag`, the base of the extensions' v2 groups, when `own` (the host's cgroup)
    /// offers the memory controller and the base can hand memory and pids on to the groups below
    /// it. cgroup v2 lets a cgroup enable controllers for its children only while it holds no
    /// process (the root excepted): where the host's own cgroup — a container's, a systemd
    /// service's — holds the host and has not enabled memory for its children, the base gets no
    /// `memory.max` to give. Then it is removed again and the refusal says why (the host falls
    /// back to v1, else to the resident-size watchdog), rather than every spawn failing on a
    /// missing `memory.max`.
    static func v2Base(own: String, tag: String) -> Result<String, V2Refusal> {
        func tokens(_ file: String) -> [String] {
            ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
        }
        guard tokens(own + "/cgroup.controllers").contains("memory") else {
            return .failure(V2Refusal(description: "\(own)/cgroup.controllers offers no memory controller"))
        }
        let base = own + "/" + tag
        guard mkdir(base, 0o755) == 0 || errno == EEXIST else {
            return .failure(V2Refusal(description: "cannot create \(base): \(String(cString: strerror(errno)))"))
        }
        _ = try? "+memory +pids".write(toFile: base + "/cgroup.subtree_control", atomically: false, encoding: .utf8)
        guard tokens(base + "/cgroup.subtree_control").contains("memory") else {
            removeWhenEmpty(base)
            return .failure(
                V2Refusal(
                    description:
                        "\(own) does not delegate the memory controller (memory is not in its cgroup.subtree_control; cgroup v2 enables it only in a cgroup that holds no process, and this one holds the host)"
                ))
        }
        return .success(base)
    }

    /// `sandglass-<pid>-<n>`: this process and a counter; with a data directory,
    /// `sandglass-<pid>-d<hash>`, so that the groups of the host of a data directory can be told
    /// from a listing (and two hosts of one process on different data directories never share one).
    static func defaultTag(dataDirectory: String? = nil) -> String {
        guard let dataDirectory else { return "sandglass-\(getpid())-\(nextTag.add(1, ordering: .relaxed).newValue)" }
        var hash: UInt32 = 2_166_136_261 // FNV-1a
        for byte in dataDirectory.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return "sandglass-\(getpid())-d" + String(hash, radix: 16)
    }

    /// Reclaims the `sandglass-<pid>-<n>` groups that hosts which are gone left in `parent`: a
    /// host SIGKILLed cannot remove its own, and an extension that escaped its parent-death
    /// signal would live on in them. Their processes are killed, then the groups removed. Groups
    /// of live processes stay. Returns the groups removed.
    @discardableResult
    static func reclaimGroupsOfDeadHosts(in parent: String) -> [String] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return [] }
        var removed: [String] = []
        for entry in entries where entry.hasPrefix("sandglass-") {
            let parts = entry.split(separator: "-")
            guard parts.count == 3, let pid = Int32(parts[1]), pid != getpid() else { continue }
            if Glibc.kill(pid, 0) == 0 || errno != ESRCH { continue }
            let base = parent + "/" + entry
            var groups: [String] = []
            for child in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: base + "/" + child, isDirectory: &isDirectory), isDirectory.boolValue {
                    groups.append(base + "/" + child)
                }
            }
            for group in groups + [base] { killTasks(of: group) }
            for group in groups { removeWhenEmpty(group) }
            if removeWhenEmpty(base) { removed.append(base) }
        }
        return removed
    }

    /// SIGKILLs every process in the group `dir` (v2 `cgroup.kill` where there is one, else each
    /// pid of `cgroup.procs`). No process can fork in the sandbox, so one pass finds them all.
    static func killTasks(of dir: String) {
        if access(dir + "/cgroup.kill", W_OK) == 0 {
            let fd = open(dir + "/cgroup.kill", O_WRONLY | O_CLOEXEC)
            if fd >= 0 {
                _ = Glibc.write(fd, "1", 1)
                close(fd)
                return
            }
        }
        for pid in pids(in: dir) { _ = Glibc.kill(pid, SIGKILL) }
    }

    /// The processes in the group `dir`.
    static func pids(in dir: String) -> [pid_t] {
        guard let text = try? String(contentsOfFile: dir + "/cgroup.procs", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { pid_t($0) }
    }

    /// Removes the group `dir` once the processes killed in it are gone (they leave it when they
    /// are reaped, which takes a moment; at most 2 s). True when removed.
    @discardableResult
    static func removeWhenEmpty(_ dir: String) -> Bool {
        let deadline = sg_monotonic_ns() + 2_000_000_000
        while rmdir(dir) != 0 {
            guard errno == EBUSY, sg_monotonic_ns() < deadline else { return errno == ENOENT }
            var pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
            nanosleep(&pause, nil)
        }
        return true
    }

    /// A controller that never uses cgroups (the watchdog enforces memory).
    static let disabled = CgroupController(layout: nil, unavailableReason: "disabled by configuration", reclaimed: [])

    /// A short description for logs: `v1 memory+pids`, `v2`, or `none (reason)`.
    var summary: String {
        switch layout {
        case .v1(_, let pids): pids == nil ? "v1 memory" : "v1 memory+pids"
        case .v2: "v2 memory+pids"
        case nil: "none (\(unavailableReason ?? "unavailable"))"
        }
    }

    /// Makes (or reuses) the group `name` with the given limits.
    func makeGroup(name: String, memoryBytes: Int, maxTasks: Int) throws(SandboxError) -> ExtensionCgroup? {
        guard let layout else { return nil }
        switch layout {
        case .v1(let memory, let pids):
            let mem = memory + "/" + name
            guard mkdir(mem, 0o755) == 0 || errno == EEXIST else { throw SandboxError(.cgroup, errno: errno, "mkdir \(mem)") }
            var pidsDir: String?
            if let pids {
                let dir = pids + "/" + name
                if mkdir(dir, 0o755) == 0 || errno == EEXIST { pidsDir = dir }
            }
            let group = ExtensionCgroup(version: 1, memoryDir: mem, pidsDir: pidsDir)
            try group.setMemoryLimit(memoryBytes)
            try group.setMaxTasks(maxTasks)
            return group
        case .v2(let base):
            let dir = base + "/" + name
            guard mkdir(dir, 0o755) == 0 || errno == EEXIST else { throw SandboxError(.cgroup, errno: errno, "mkdir \(dir)") }
            let group = ExtensionCgroup(version: 2, memoryDir: dir, pidsDir: dir)
            try group.setMemoryLimit(memoryBytes)
            try group.setMaxTasks(maxTasks)
            return group
        }
    }

    /// Removes the host's own `sandglass-<pid>-<n>` groups (at shutdown, after every extension
    /// was reaped), killing whatever process is still in them first.
    func removeBase() {
        switch layout {
        case .v1(let memory, let pids):
            Self.killTasks(of: memory)
            Self.removeWhenEmpty(memory)
            if let pids {
                Self.killTasks(of: pids)
                Self.removeWhenEmpty(pids)
            }
        case .v2(let base):
            Self.killTasks(of: base)
            Self.removeWhenEmpty(base)
        case nil:
            break
        }
    }
}

private let nextTag = Atomic<Int>(0)

/// The cgroup(s) of one extension: limits, membership, and how to tell a memory kill.
final class ExtensionCgroup: Sendable {
    let version: Int
    let memoryDir: String
    let pidsDir: String?
    /// The memory limit last written, 0 before the first.
    private let memoryLimit = Atomic<Int>(0)

    init(version: Int, memoryDir: String, pidsDir: String?) {
        self.version = version
        self.memoryDir = memoryDir
        self.pidsDir = pidsDir
    }

    /// Sets the group's memory limit; a limit already set is not written again (every launch
    /// of the extension asks for its budget: five system calls on the spawn's path otherwise).
    func setMemoryLimit(_ bytes: Int) throws(SandboxError) {
        guard memoryLimit.load(ordering: .relaxed) != bytes else { return }
        if version == 1 {
            // No swap here, but where there is, the limit must cover it too. The kernel keeps
            // memory.limit_in_bytes ≤ memory.memsw.limit_in_bytes: a higher limit (a group
            // reused after its limit was lowered) raises memsw first, a lower one lowers it last.
            let memsw = memoryDir + "/memory.memsw.limit_in_bytes"
            let hasMemsw = access(memsw, W_OK) == 0
            if hasMemsw, let current = readNumber(memsw), bytes > current { try? write(String(bytes), to: memsw) }
            try write(String(bytes), to: memoryDir + "/memory.limit_in_bytes")
            if hasMemsw { try? write(String(bytes), to: memsw) }
        } else {
            try write(String(bytes), to: memoryDir + "/memory.max")
            try? write("0", to: memoryDir + "/memory.swap.max")
        }
        memoryLimit.store(bytes, ordering: .relaxed)
    }

    func setMaxTasks(_ count: Int) throws(SandboxError) {
        guard let pidsDir else { return }
        try write(String(count), to: pidsDir + "/pids.max")
    }

    /// The file the child writes "0" into to join the group. On v1 it is `tasks`, which moves
    /// only the writing thread: the child, single-threaded between clone and execve, moves whole,
    /// and the kernel skips the global threadgroup lock whose write side waits for an RCU grace
    /// period (`cgroup.procs` cost 8–16 ms per spawn here, `tasks` microseconds). On v2 it is
    /// `cgroup.procs` (`cgroup.threads` only serves threaded groups).
    var joinFileName: String { version == 1 ? "tasks" : "cgroup.procs" }

    /// Opens the files the child writes itself into (``joinFileName``); the caller closes them.
    func openProcsFiles() throws(SandboxError) -> [Int32] {
        var fds: [Int32] = []
        for dir in Set([memoryDir] + (pidsDir.map { [$0] } ?? [])).sorted() {
            let fd = open(dir + "/" + joinFileName, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else {
                let e = errno
                fds.forEach { close($0) }
                throw SandboxError(.cgroup, errno: e, "open \(dir)/\(joinFileName)")
            }
            fds.append(fd)
        }
        return fds
    }

    /// How many processes of this group the kernel's OOM killer has killed so far.
    func oomKillCount() -> Int {
        let file = version == 1 ? memoryDir + "/memory.oom_control" : memoryDir + "/memory.events"
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, parts[0] == "oom_kill" { return Int(parts[1]) ?? 0 }
        }
        return 0
    }

    /// Peak memory charged to the group, in bytes (v1 `memory.max_usage_in_bytes`, v2 `memory.peak`).
    func peakBytes() -> Int? {
        let file = version == 1 ? memoryDir + "/memory.max_usage_in_bytes" : memoryDir + "/memory.peak"
        return (try? String(contentsOfFile: file, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Starts a new peak: v1 resets `memory.max_usage_in_bytes` to the current usage (at a spawn,
    /// so that the peak is this process's); v2's `memory.peak` keeps the group's lifetime peak.
    func resetPeak() {
        if version == 1 { try? write("0", to: memoryDir + "/memory.max_usage_in_bytes") }
    }

    /// Removes the group, killing first any process still in it (none once its process is
    /// reaped, unless one escaped the host's kill).
    func remove() {
        for dir in Set([memoryDir] + (pidsDir.map { [$0] } ?? [])).sorted() {
            if !CgroupController.pids(in: dir).isEmpty { CgroupController.killTasks(of: dir) }
            CgroupController.removeWhenEmpty(dir)
        }
    }

    private func readNumber(_ path: String) -> Int? {
        (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    private func write(_ value: String, to path: String) throws(SandboxError) {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SandboxError(.cgroup, errno: errno, "open \(path)") }
        defer { close(fd) }
        let ok = value.withCString { Glibc.write(fd, $0, strlen($0)) } >= 0
        guard ok else { throw SandboxError(.cgroup, errno: errno, "write \(value) to \(path)") }
    }
}

/// The cgroup mounts and this process's place in them.
enum CgroupMounts {
    struct Mounts {
        var v1: [String: String] = [:]
        var v2: String?
    }

    static func read() -> Mounts {
        var mounts = Mounts()
        guard let text = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return mounts }
        for line in text.split(separator: "\n") {
            let halves = line.components(separatedBy: " - ")
            guard halves.count == 2 else { continue }
            let left = halves[0].split(separator: " ")
            let right = halves[1].split(separator: " ")
            guard left.count >= 5, right.count >= 3 else { continue }
            let mountPoint = String(left[4])
            if right[0] == "cgroup2" {
                if mounts.v2 == nil { mounts.v2 = mountPoint }
            } else if right[0] == "cgroup" {
                for option in right[2].split(separator: ",") where option == "memory" || option == "pids" {
                    mounts.v1[String(option)] = mountPoint
                }
            }
        }
        return mounts
    }

    static func membership() -> (v1: [String: String], v2: String?) {
        var v1: [String: String] = [:]
        var v2: String?
        guard let text = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8) else { return (v1, v2) }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { continue }
            if parts[0] == "0" && parts[1].isEmpty {
                v2 = String(parts[2])
            } else {
                for controller in parts[1].split(separator: ",") { v1[String(controller)] = String(parts[2]) }
            }
        }
        return (v1, v2)
    }
}

import CSandbox
import Dispatch
import Foundation
import Glibc
import Synchronization

/// What an extension's container holds: allocated bytes (st_blocks × 512) and entries (files,
/// directories, links), counted without following symbolic links.
struct ContainerUsage: Sendable, Hashable {
    var bytes: Int
    var inodes: Int
    /// The count stopped early: more entries than allowed, or nested deeper than ``maximumDepth``.
    var stoppedEarly: Bool
    var tooDeep: Bool
    /// A directory in it that the host may not read (its mode, under a host not running as
    /// root): what it holds is unknown, so it counts as over the quota.
    var unreadable = false

    /// Directories nested deeper than this count as over quota (the walk holds one descriptor per level).
    static let maximumDepth = 128

    /// Measures `container`, stopping once it holds more than `inodeLimit` entries (so the
    /// cost is bounded by the quota). Blocking: call off the host's loop thread.
    static func measure(_ container: String, inodeLimit: Int) -> ContainerUsage? {
        var bytes: UInt64 = 0
        var inodes = 0
        let rc = sg_container_usage(container, inodeLimit, Int32(maximumDepth), &bytes, &inodes)
        guard rc >= 0 else { return nil }
        return ContainerUsage(
            bytes: Int(clamping: bytes), inodes: inodes, stoppedEarly: rc != 0, tooDeep: rc == SG_USAGE_TOO_DEEP,
            unreadable: rc == SG_USAGE_UNREADABLE)
    }

    /// The usage of each of a process's `containers`, in order, the first — its own — with the
    /// files the process holds open that no directory names any more (written, then unlinked:
    /// still on the disk; mappings only where the host may read /proc/<pid>/map_files, as root).
    /// `uid`: the process's own, nil when it runs as the host's user.
    static func measure(_ containers: [String], of pid: pid_t, uid: UInt32?, inodeLimit: Int) -> [ContainerUsage?] {
        var usages = containers.map { measure($0, inodeLimit: inodeLimit) }
        var status = stat()
        if var own = usages.first ?? nil, let first = containers.first, stat(first, &status) == 0 {
            // On the containers' file system only: a memfd is memory, the memory limit's.
            let unlinked = sg_unlinked_open_bytes(pid, Int(uid ?? geteuid()), status.st_dev)
            let (sum, overflow) = own.bytes.addingReportingOverflow(Int(clamping: unlinked))
            own.bytes = overflow ? .max : sum
            usages[0] = own
        }
        return usages
    }

    /// Whether this is over the container quota of `budgets`.
    func isOver(_ budgets: Budgets) -> Bool {
        tooDeep || unreadable || bytes > budgets.containerBytes || inodes > budgets.containerInodes
    }

    /// `5.2 MiB in 12 files`, for the event's detail.
    var summary: String {
        let mib = Double(bytes) / Double(1 << 20)
        let count = "\(inodes)\(stoppedEarly && !tooDeep && !unreadable ? "+" : "") files"
        return String(format: "%.1f MiB in ", mib) + count + (tooDeep ? ", nested over \(Self.maximumDepth) directories deep" : "")
            + (unreadable ? ", and a directory the host may not read (its mode)" : "")
    }
}

/// Measures containers on a thread of its own — a walk of thousands of entries must not delay
/// the host's loop, whose latency is the precision of its kills — and hands each result back
/// on the loop, through a pipe the loop watches. Created, used and closed on the loop.
final class ContainerScanner {
    /// Results waiting for the loop, and the pipe's write end (−1 once closed).
    private final class Mailbox: Sendable {
        let state: Mutex<(results: [(UInt64, [SweepResult])], writeFD: Int32)>
        init(writeFD: Int32) { state = Mutex(([], writeFD)) }

        func post(_ id: UInt64, _ results: [SweepResult]) {
            state.withLock { state in
                guard state.writeFD >= 0 else { return }
                state.results.append((id, results))
                var byte: UInt8 = 1
                _ = Glibc.write(state.writeFD, &byte, 1)
            }
        }
    }

    private let loop: EventLoop
    private let queue = DispatchQueue(label: "sandglass.container-usage", qos: .utility)
    private let readFD: Int32
    private let mailbox: Mailbox
    private var waiting: [UInt64: ([SweepResult]) -> Void] = [:]
    private var nextID: UInt64 = 1
    /// Closed by the host's shutdown: no walk starts after it.
    private var isClosed = false

    init(loop: EventLoop) throws(SandboxError) {
        var fds: [Int32] = [-1, -1]
        guard sg_pipe(&fds) == 0 else { throw SandboxError(.channel, errno: errno, "container usage pipe") }
        _ = sg_set_nonblocking(fds[0])
        _ = sg_set_nonblocking(fds[1])
        readFD = fds[0]
        mailbox = Mailbox(writeFD: fds[1])
        self.loop = loop
        loop.register(readFD, events: UInt32(SG_EPOLLIN)) { [unowned self] _ in self.deliver() }
    }

    /// Measures the containers of process `pid` off the loop; `done` runs on the loop with the
    /// usage of each, in order (nil when it cannot be opened), and the process's CPU time read first.
    func measure(
        _ containers: [String], of pid: pid_t, uid: UInt32?, inodeLimit: Int,
        _ done: @escaping ([ContainerUsage?], ProcessActivity?) -> Void
    ) {
        guard !isClosed else { return }
        let id = enqueue { results in done(results.first?.usages ?? [], results.first?.activity) }
        let mailbox = mailbox
        queue.async {
            let activity = ProcessActivity.of(pid)
            let usages = ContainerUsage.measure(containers, of: pid, uid: uid, inodeLimit: inodeLimit)
            mailbox.post(id, [SweepResult(pid: pid, activity: activity, measured: true, usages: usages)])
        }
    }

    /// One idle process in a sweep: its containers, and its activity at its last measure.
    struct IdleCheck: Sendable {
        var pid: pid_t
        /// The uid the process runs as, nil when it is the host's own.
        var uid: UInt32? = nil
        var containers: [String]
        var inodeLimit: Int
        var activity: ProcessActivity?
    }

    /// What a sweep found for one process: its activity now, and the usage of each container
    /// when they were measured (`measured` false: it ran no code since its last measure, so it
    /// wrote nothing).
    struct SweepResult: Sendable {
        var pid: pid_t
        var activity: ProcessActivity?
        var measured: Bool
        var usages: [ContainerUsage?]
    }

    /// Measures the containers of idle processes in one job off the loop, skipping each whose
    /// process used no CPU since its last measure (an idle process that runs no code writes no
    /// file): hundreds of idle extensions cost one wake-up and a clock read each. The CPU time
    /// is exact, not /proc's 10 ms ticks: a few megabytes of writes take less than a tick.
    func sweep(_ checks: [IdleCheck], _ done: @escaping ([SweepResult]) -> Void) {
        guard !isClosed else { return }
        let id = enqueue(done)
        let mailbox = mailbox
        queue.async {
            mailbox.post(
                id,
                checks.map { check in
                    let activity = ProcessActivity.of(check.pid)
                    if let activity, let last = check.activity, activity.isIdle(since: last) {
                        return SweepResult(pid: check.pid, activity: activity, measured: false, usages: [])
                    }
                    return SweepResult(
                        pid: check.pid, activity: activity, measured: true,
                        usages: ContainerUsage.measure(check.containers, of: check.pid, uid: check.uid, inodeLimit: check.inodeLimit))
                })
        }
    }

    private func enqueue(_ done: @escaping ([SweepResult]) -> Void) -> UInt64 {
        let id = nextID
        nextID += 1
        waiting[id] = done
        return id
    }

    private func deliver() {
        var drain = [UInt8](repeating: 0, count: 256)
        while drain.withUnsafeMutableBytes({ Glibc.read(readFD, $0.baseAddress, $0.count) }) > 0 {}
        let results = mailbox.state.withLock { state in
            defer { state.results.removeAll() }
            return state.results
        }
        for (id, found) in results { waiting.removeValue(forKey: id)?(found) }
    }

    /// Stops delivering, then waits for a walk still running (bounded by its inode limit) to
    /// finish unheard: the host's shutdown leaves no descriptor of a container open.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        loop.unregister(readFD)
        Glibc.close(readFD)
        mailbox.state.withLock { state in
            Glibc.close(state.writeFD)
            state.writeFD = -1
        }
        waiting.removeAll()
        queue.sync {}
    }
}

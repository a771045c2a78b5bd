import CSandbox
import Dispatch
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

    /// Directories nested deeper than this count as over quota (the walk holds one descriptor per level).
    static let maximumDepth = 128

    /// Measures `container`, stopping once it holds more than `inodeLimit` entries (so the
    /// cost is bounded by the quota). Blocking: call off the host's loop thread.
    static func measure(_ container: String, inodeLimit: Int) -> ContainerUsage? {
        var bytes: UInt64 = 0
        var inodes = 0
        let rc = sg_container_usage(container, inodeLimit, Int32(maximumDepth), &bytes, &inodes)
        guard rc >= 0 else { return nil }
        return ContainerUsage(bytes: Int(clamping: bytes), inodes: inodes, stoppedEarly: rc != 0, tooDeep: rc == SG_USAGE_TOO_DEEP)
    }

    /// Whether this is over the container quota of `budgets`.
    func isOver(_ budgets: Budgets) -> Bool {
        tooDeep || bytes > budgets.containerBytes || inodes > budgets.containerInodes
    }

    /// `5.2 MiB in 12 files`, for the event's detail.
    var summary: String {
        let mib = Double(bytes) / Double(1 << 20)
        let count = "\(inodes)\(stoppedEarly && !tooDeep ? "+" : "") files"
        return String(format: "%.1f MiB in ", mib) + count + (tooDeep ? ", nested over \(Self.maximumDepth) directories deep" : "")
    }
}

/// Measures containers on a thread of its own — a walk of thousands of entries must not delay
/// the host's loop, whose latency is the precision of its kills — and hands each result back
/// on the loop, through a pipe the loop watches. Created, used and closed on the loop.
final class ContainerScanner {
    /// Results waiting for the loop, and the pipe's write end (−1 once closed).
    private final class Mailbox: Sendable {
        let state: Mutex<(results: [(UInt64, ContainerUsage?)], writeFD: Int32)>
        init(writeFD: Int32) { state = Mutex(([], writeFD)) }

        func post(_ id: UInt64, _ usage: ContainerUsage?) {
            state.withLock { state in
                guard state.writeFD >= 0 else { return }
                state.results.append((id, usage))
                var byte: UInt8 = 1
                _ = Glibc.write(state.writeFD, &byte, 1)
            }
        }
    }

    private let loop: EventLoop
    private let queue = DispatchQueue(label: "sandglass.container-usage", qos: .utility)
    private let readFD: Int32
    private let mailbox: Mailbox
    private var waiting: [UInt64: (ContainerUsage?) -> Void] = [:]
    private var nextID: UInt64 = 1

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

    /// Measures `container` off the loop; `done` runs on the loop with the usage (nil when the
    /// container cannot be opened).
    func measure(_ container: String, inodeLimit: Int, _ done: @escaping (ContainerUsage?) -> Void) {
        let id = nextID
        nextID += 1
        waiting[id] = done
        let mailbox = mailbox
        queue.async { mailbox.post(id, ContainerUsage.measure(container, inodeLimit: inodeLimit)) }
    }

    private func deliver() {
        var drain = [UInt8](repeating: 0, count: 256)
        while drain.withUnsafeMutableBytes({ Glibc.read(readFD, $0.baseAddress, $0.count) }) > 0 {}
        let results = mailbox.state.withLock { state in
            defer { state.results.removeAll() }
            return state.results
        }
        for (id, usage) in results { waiting.removeValue(forKey: id)?(usage) }
    }

    /// Stops delivering; a walk still running finishes unheard.
    func close() {
        loop.unregister(readFD)
        Glibc.close(readFD)
        mailbox.state.withLock { state in
            Glibc.close(state.writeFD)
            state.writeFD = -1
        }
        waiting.removeAll()
    }
}

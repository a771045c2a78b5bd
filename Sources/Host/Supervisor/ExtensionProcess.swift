import CSandbox
import Foundation
import Glibc
import SandglassIPC

/// One process of an extension, from spawn to reaping. Confined to the host's loop thread.
final class ExtensionProcess {
    /// Its ``ProcessLifecycle``, with continuations for the launch's waiters and ``Pending`` records
    /// for its activations.
    typealias Lifecycle = ProcessLifecycle<CheckedContinuation<Result<Void, LaunchFailure>, Never>, Pending>

    /// The lifecycle's state, coarsely, for the host's other parts.
    enum State {
        /// Spawned; waiting for `hello` within the launch budget.
        case launching
        /// Said hello; serving activations.
        case ready
        /// Dead or being killed; waiting to be reaped.
        case exiting
    }

    /// A request sent and not yet answered.
    struct Pending {
        let id: RequestID
        let kind: ActivationKind
        let widgetKind: String?
        let session: String?
        let started: UInt64
        let budget: Duration
        /// The budget's end on the loop, and on the deadline thread.
        let deadline: EventLoop.Timer
        let threadDeadline: DeadlineKiller.ID?
        let continuation: CheckedContinuation<ActivationOutcome, Never>
        /// The run clock held while it lasts, given back when it ends.
        let busy: RunClock.Hold
    }

    /// A budget's end armed on the deadline thread: when, and what the kill will say.
    struct ThreadDeadline {
        let due: UInt64
        let detail: String
    }

    /// An outstanding `ping`.
    struct PingProbe {
        let number: UInt64
        /// Called with true for the pong, with false when the process ended first.
        let answered: (Bool) -> Void
    }

    let pid: pid_t
    /// Readable once it ended (its pidfd, for a real child).
    let exitFD: Int32
    /// Kills, signals and reaps it (``ProcessLauncher``'s backend).
    let control: any ProcessControl
    let spawnedAt: UInt64
    let cgroup: ExtensionCgroup?
    let oomKillsAtSpawn: Int
    var channel: Channel!
    var output: OutputReader!
    var listenerFD: Int32?
    /// Where it is in its life; only ``Supervisor`` changes it, through its events.
    var lifecycle: Lifecycle
    var hello: Hello?
    /// The lifecycle's timers, armed and cancelled as it says.
    var launchTimer: EventLoop.Timer?
    var idleTimer: RunClock.Timer?
    /// The run clock held as the lifecycle says (its launch, a quiet wait, a kill until reaped).
    var clockHolds: [Lifecycle.ClockHold: RunClock.Hold] = [:]
    /// Waiting (on the loop) for the process to be quiet before an idle kill.
    var quietTimer: EventLoop.Timer?
    /// This process on the deadline thread (nil without one), and its deadlines armed there and
    /// not settled yet.
    var killTarget: DeadlineKiller.Target?
    var threadDeadlines: [DeadlineKiller.ID: ThreadDeadline] = [:]
    /// When the deadline thread SIGKILLed it (its recorded kill): a reply read after is too late.
    var threadKilledAt: UInt64?
    var watchdogTimer: EventLoop.Timer?
    var channelClosedTimer: EventLoop.Timer?
    /// The next measurement of the container (``Supervisor/checkContainer(_:of:)``).
    var containerTimer: EventLoop.Timer?
    /// When what its message budget dropped is due to be told, if no message comes first.
    var throttledTimer: EventLoop.Timer?
    var containerCheckInFlight = false
    /// A measurement was asked for while one was under way: it follows at once.
    var containerRecheck = false
    /// What it had done when its container was last measured.
    var containerActivity: ProcessActivity?
    /// SIGSTOPped by chaos testing and not yet continued.
    var isSuspended = false
    var deniedCount = 0
    var pingProbe: PingProbe?
    /// What it may still send unasked (logs, reloads, diagnostics, requests).
    var messageBudget: MessageBudget
    /// The ids of its latest activations (at most ``recentRequestCount``), newest last: what a
    /// report of its may name.
    private(set) var recentRequests: [RequestID] = []
    static let recentRequestCount = 16

    /// Activation `id` was issued to it.
    func issued(_ id: RequestID) {
        recentRequests.append(id)
        if recentRequests.count > Self.recentRequestCount { recentRequests.removeFirst() }
    }

    /// Of the bytes its channel read, those charged to its budget so far.
    var bytesCharged = 0

    init(launched: LaunchedProcess, spawnedAt: UInt64, lifecycle: Lifecycle, messageLimits: MessageLimits) {
        self.lifecycle = lifecycle
        messageBudget = MessageBudget(limits: messageLimits, now: spawnedAt)
        pid = launched.pid
        exitFD = launched.exitFD
        control = launched.control
        listenerFD = launched.listenerFD
        let cgroup = launched.cgroup
        self.cgroup = cgroup
        self.spawnedAt = spawnedAt
        oomKillsAtSpawn = cgroup?.oomKillCount() ?? 0
    }

    /// Launching, ready (welcomed, or being welcomed) or exiting (killed or reaped).
    var state: State {
        if lifecycle.isLaunching { return .launching }
        return lifecycle.isEnding ? .exiting : .ready
    }

    /// Why the host (or the kernel) killed it, once it did.
    var killReason: KillReason? { lifecycle.killReason }

    /// Its activations sent and not yet answered, by request.
    var pending: [RequestID: Pending] { lifecycle.activations }

    /// How an activation of this process ends now that it was reaped (nil while it lives).
    var exitOutcome: ActivationOutcome? { lifecycle.exitOutcome }

    /// CLOCK_MONOTONIC when `hello` arrived.
    var helloAt: UInt64? { lifecycle.helloAt }

    /// Kills it (SIGKILL, for a real child through its pidfd and to its process group).
    func sendKill() {
        control.kill()
    }

    /// The highest VmHWM read from /proc so far, in KiB (when no cgroup measures the peak).
    var sampledPeakKiB: UInt64 = 0

    /// Reads VmHWM (peak resident size) from /proc into `sampledPeakKiB`.
    func samplePeak() {
        let fd = open("/proc/\(pid)/status", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 2048)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return }
        let text = String(decoding: buffer[0..<n], as: UTF8.self)
        // At a line's start: the `Name:` line before it is the process's own choice.
        guard let range = text.range(of: "\nVmHWM:") else { return }
        let digits = text[range.upperBound...].drop { $0 == " " || $0 == "\t" }.prefix { $0.isNumber }
        if let kib = UInt64(digits) { sampledPeakKiB = max(sampledPeakKiB, kib) }
    }

    /// True when none of the process's threads is running or runnable (state `R`, or `D` in
    /// uninterruptible I/O) and its IPC socket holds nothing the host has not read.
    func isQuiet() -> Bool {
        var byte: UInt8 = 0
        if recv(channel.fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0 { return false }
        return control.threadsAreIdle()
    }

    /// Resident set size from /proc, in bytes (the watchdog's reading).
    func residentBytes() -> Int? {
        let fd = open("/proc/\(pid)/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        let fields = String(decoding: buffer[0..<n], as: UTF8.self).split(separator: " ")
        guard fields.count >= 2, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// Why an extension could not be brought up.
enum LaunchFailure: Error, Sendable, CustomStringConvertible {
    case spawn(String)
    case died(ActivationOutcome)
    /// The extension failed permanently (see ``RelaunchBackoff``); it is not launched again.
    case failedPermanently
    /// The host is shutting down.
    case shuttingDown

    var description: String {
        switch self {
        case .spawn(let reason): "could not spawn: \(reason)"
        case .died(.killed(let reason)): "killed during launch (\(reason.rawValue))"
        case .died(.failed(let reason)): reason
        case .died: "ended during launch"
        case .failedPermanently: "failed permanently after repeated failures; not launched again"
        case .shuttingDown: "the host is shutting down"
        }
    }

    var outcome: ActivationOutcome {
        switch self {
        case .spawn(let reason): .failed("could not spawn: \(reason)")
        case .died(let outcome): outcome
        case .failedPermanently, .shuttingDown: .failed(description)
        }
    }
}

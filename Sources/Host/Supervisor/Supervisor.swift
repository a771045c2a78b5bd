import CSandbox
import Foundation
import Glibc
import SandglassIPC

/// Spawns extensions into the sandbox, runs activations under their budgets, kills what runs
/// over, reaps what dies and records all of it. Confined to the host's loop thread.
///
/// Each process's life is a ``ProcessLifecycle``: the supervisor tells it what happened
/// (``drive(_:of:_:)``) and performs what it answers. The rest is in extensions, one concept a
/// file: registration, launch, activations, messages and hello, thread deadlines, crash-loop
/// backoff, the memory watchdog, seccomp denials, ping, reaping, containers and app groups.
final class Supervisor {
    /// What the rest of the host hears from the supervisor.
    struct Hooks {
        var helloReceived: (ManagedExtension, Hello) -> Void = { _, _ in }
        var reloadRequested: (ManagedExtension, String?) -> Void = { _, _ in }
        var processExited: (ManagedExtension, ExitRecord) -> Void = { _, _ in }
        /// Messages for the host's other parts: background sessions, tasks, location.
        var extensionMessage: (ManagedExtension, ExtensionProcess, Message) -> Void = { ext, process, message in
            process.channel.send(
                .error(ErrorReport(code: .unsupportedRequest, message: "\(message.type) is not supported by this host yet")))
        }
        /// A named step of the conversation was just passed (chaos kills armed at steps).
        var stepReached: (ProtocolStep, ManagedExtension, ExtensionProcess) -> Void = { _, _, _ in }
        /// What the SDK noticed about the extension's code (main thread blocked, completion called twice).
        var diagnosticReceived: (ManagedExtension, ExtensionProcess, DiagnosticReport) -> Void = { _, _, _ in }
    }

    struct Settings {
        var maximumFrameLength = Frame.defaultMaximumLength
        var containersRoot: String
        /// Where the app groups' containers live (`<data>/AppGroups`).
        var appGroupsRoot: String = ""
        var messageLimits = MessageLimits()
        var budgetOverrides = LimitOverrides()
        var environment: [String: String] = [:]
        var relaunchBackoff = RelaunchBackoff()
    }

    let loop: EventLoop
    let clock: RunClock
    let log: EventLog
    let sandbox: Sandbox
    /// Launches, kills and reaps extensions' processes: the sandbox, unless a test gave another.
    let launcher: any ProcessLauncher
    let settings: Settings
    var hooks = Hooks()
    var extensions: [String: ManagedExtension] = [:]
    var nextRequest: UInt64 = 1
    /// Those waiting for a process to be reaped.
    var exitWaiters: [CheckedContinuation<Void, Never>] = []
    /// Launches waiting for their extension's backoff to end.
    let backoffWaits: ClockWaits<ManagedExtension>
    var isShuttingDown = false
    /// Measures containers for their quota off the loop (nil only if its pipe could not be made).
    let containerScanner: ContainerScanner?
    /// Kills at budget deadlines without waiting for the loop (nil only if its thread could not
    /// be made: the loop's timers then kill alone).
    let killer: DeadlineKiller?
    /// The next sweep of idle processes' containers (Supervisor+ContainerQuota).
    var containerSweepTimer: EventLoop.Timer?
    /// The gids of app groups (made when the first group is, if extensions have uids of their own).
    var appGroupIdentities: AppGroupIdentities?
    /// App groups' containers prepared so far, by `app/group`.
    var appGroupContainers: [String: AppGroupContainer] = [:]
    /// Each extension's own uid, when extensions get one (the host runs as root).
    lazy var identities: ExtensionIdentities? =
        sandbox.policy.extensionUser.isPerExtension
        ? ExtensionIdentities(range: sandbox.policy.identityRange, containersRoot: settings.containersRoot) : nil

    init(
        loop: EventLoop, clock: RunClock, log: EventLog, sandbox: Sandbox, launcher: (any ProcessLauncher)? = nil,
        settings: Settings
    ) {
        self.loop = loop
        self.clock = clock
        self.log = log
        self.sandbox = sandbox
        self.launcher = launcher ?? sandbox
        self.settings = settings
        backoffWaits = ClockWaits(clock: clock)
        containerScanner = try? ContainerScanner(loop: loop)
        killer = DeadlineKiller()
    }

    /// Live processes now.
    var liveProcesses: Int { extensions.values.filter { $0.process != nil }.count }

    // MARK: the lifecycle

    /// Tells the lifecycle of `process` what happened, and performs what it answers.
    func drive(_ process: ExtensionProcess, of ext: ManagedExtension, _ event: ExtensionProcess.Lifecycle.Event) {
        loop.assertInLoop()
        perform(process.lifecycle.handle(event), for: process, of: ext)
    }

    /// Performs, in order, what the lifecycle of `process` answered.
    func perform(_ actions: [ExtensionProcess.Lifecycle.Action], for process: ExtensionProcess, of ext: ManagedExtension) {
        for action in actions {
            switch action {
            case .armLaunchTimer(let at):
                process.launchTimer = loop.schedule(at: at) { [unowned self, unowned process] in
                    process.launchTimer = nil
                    self.drive(process, of: ext, .launchDeadlinePassed)
                }
            case .cancelLaunchTimer:
                if let timer = process.launchTimer { loop.cancel(timer) }
                process.launchTimer = nil
            case .armIdleTimer(let at):
                if let timer = process.idleTimer { clock.cancel(timer) }
                process.idleTimer = clock.schedule(at: at) { [unowned self, unowned process] in
                    process.idleTimer = nil
                    self.drive(process, of: ext, .idleTimerFired)
                }
            case .cancelIdleTimer:
                if let timer = process.idleTimer { clock.cancel(timer) }
                process.idleTimer = nil
            case .armQuietCheck(let at):
                process.quietTimer = loop.schedule(at: at) { [unowned self, unowned process] in
                    process.quietTimer = nil
                    self.drive(process, of: ext, .quietCheckDue)
                }
            case .cancelQuietCheck:
                if let timer = process.quietTimer { loop.cancel(timer) }
                process.quietTimer = nil
            case .measureQuiet:
                // On the virtual clock the idle budget may pass in a jump right after the last
                // reply, while the process still runs code (a provider that calls WidgetCenter
                // after its completion): the kill waits until none of its threads is running and
                // the host has read everything it wrote.
                drive(process, of: ext, .quietMeasured(isQuiet: process.isQuiet(), now: sg_monotonic_ns()))
            case .holdClock(let reason):
                process.clockHolds[reason] = clock.holdBusy()
            case .releaseClock(let reason):
                process.clockHolds.removeValue(forKey: reason)?.release()
            case .resumeLaunchWaiters(let waiters, let result):
                let resumed: Result<Void, LaunchFailure> =
                    switch result {
                    case .ready: .success(())
                    case .died(let outcome): .failure(.died(outcome))
                    }
                for waiter in waiters { waiter.resume(returning: resumed) }
            case .finishActivations(let activations, let outcome):
                for pending in activations { finish(pending, of: process, ext: ext, outcome) }
            case .kill(.idle):
                kill(process, of: ext, .idle, detail: "idle for \(format(ext.budgets.idle)) after its last activation")
            case .kill(.launchBudget(let deadline)):
                kill(
                    process, of: ext, .timeBudget, detail: "no hello within the \(format(ext.budgets.launch)) launch budget",
                    deadline: deadline)
            case .relaunch:
                break // activate(…) launches again
            case .recordFailure(let cause):
                if !isShuttingDown { recordFailure(of: ext, pid: process.pid, cause: cause) }
            }
        }
    }

    // MARK: kill

    /// Kills `process` (SIGKILL) and records why; the first reason given is the one recorded.
    /// A kill at a budget's end gives its `deadline` (CLOCK_MONOTONIC), recorded as `deadlineNs`
    /// beside `killedAtNs` so that the kill's lateness can be read from the log.
    ///
    /// When the deadline thread killed the process already, that kill is the one recorded, with
    /// the instant the thread sent it (`killedAt`).
    func kill(
        _ process: ExtensionProcess, of ext: ManagedExtension, _ reason: KillReason, detail: String,
        deadline: UInt64? = nil, killedAt threadKilledAt: UInt64? = nil
    ) {
        guard !process.lifecycle.isEnding else { return }
        if settleThreadDeadlines(process, of: ext) { return }
        let wasLaunching = process.lifecycle.isLaunching
        drive(process, of: ext, .killRequested(reason)) // until reaped, the clock is held
        var fields: [(String, JSONValue)] = [
            ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
            ("reason", .string(reason.rawValue)), ("detail", .string(detail))
        ]
        if wasLaunching { fields.append(("phase", "launch")) }
        let killedAt = threadKilledAt ?? sg_monotonic_ns()
        process.threadKilledAt = threadKilledAt
        process.sendKill() // again after the thread: the process group too
        fields.append(("killedAtNs", .int(Int64(killedAt))))
        if let deadline { fields.append(("deadlineNs", .int(Int64(deadline)))) }
        log.emit(.killed, fields)
    }

    /// Kills the extension's live process, if any.
    func kill(_ ext: ManagedExtension, _ reason: KillReason, detail: String) {
        if let process = ext.process { kill(process, of: ext, reason, detail: detail) }
    }

    /// The extension whose live process is `pid`, and that process.
    func running(pid: pid_t) -> (ManagedExtension, ExtensionProcess)? {
        guard let ext = extensions.values.first(where: { $0.process?.pid == pid }), let process = ext.process else { return nil }
        return (ext, process)
    }

    /// Waits until the extension has no process (its current one, if any, reaped).
    func waitUntilStopped(_ ext: ManagedExtension) async {
        while ext.process != nil {
            await withCheckedContinuation { continuation in
                if ext.process == nil { continuation.resume() } else { exitWaiters.append(continuation) }
            }
        }
    }

    // MARK: shutdown

    /// Kills every live process (`hostShutdown`) and waits until each is reaped.
    func shutdown() async {
        isShuttingDown = true
        backoffWaits.close()
        for ext in extensions.values {
            if let process = ext.process, process.killReason == nil {
                kill(process, of: ext, .hostShutdown, detail: "the host is shutting down")
            }
        }
        while liveProcesses > 0 {
            await withCheckedContinuation { continuation in
                if liveProcesses == 0 { continuation.resume() } else { exitWaiters.append(continuation) }
            }
        }
        if let timer = containerSweepTimer { loop.cancel(timer) }
        containerSweepTimer = nil
        containerScanner?.close()
        killer?.stop()
    }
}

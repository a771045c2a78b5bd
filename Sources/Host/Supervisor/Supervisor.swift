import CSandbox
import Foundation
import Glibc
import SandglassIPC

/// Spawns extensions into the sandbox, runs activations under their budgets, kills what runs
/// over, reaps what dies and records all of it. Confined to the host's loop thread.
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
    let settings: Settings
    var hooks = Hooks()
    private(set) var extensions: [String: ManagedExtension] = [:]
    private var nextRequest: UInt64 = 1
    private var exitWaiters: [CheckedContinuation<Void, Never>] = []
    /// Launches waiting for their extension's backoff to end.
    private let backoffWaits: ClockWaits<ManagedExtension>
    private var isShuttingDown = false
    /// Measures containers for their quota off the loop (nil only if its pipe could not be made).
    let containerScanner: ContainerScanner?
    /// Kills at budget deadlines without waiting for the loop (nil only if its thread could not
    /// be made: the loop's timers then kill alone).
    let killer: DeadlineKiller?
    /// The next sweep of idle processes' containers (Supervisor+ContainerQuota).
    var containerSweepTimer: TimerID?
    /// Each extension's own uid, when extensions get one (the host runs as root).
    /// The gids of app groups (made when the first group is, if extensions have uids of their own).
    var appGroupIdentities: AppGroupIdentities?
    /// App groups' containers prepared so far, by `app/group`.
    var appGroupContainers: [String: AppGroupContainer] = [:]
    private lazy var identities: ExtensionIdentities? =
        sandbox.policy.extensionUser.isPerExtension
        ? ExtensionIdentities(range: sandbox.policy.identityRange, containersRoot: settings.containersRoot) : nil

    init(loop: EventLoop, clock: RunClock, log: EventLog, sandbox: Sandbox, settings: Settings) {
        self.loop = loop
        self.clock = clock
        self.log = log
        self.sandbox = sandbox
        self.settings = settings
        backoffWaits = ClockWaits(clock: clock)
        containerScanner = try? ContainerScanner(loop: loop)
        killer = DeadlineKiller()
    }

    /// Live processes now.
    var liveProcesses: Int { extensions.values.filter { $0.process != nil }.count }

    // MARK: registration

    /// Makes `bundle` known, with its container created.
    func register(_ bundle: ExtensionBundle, app: AppBundle) throws -> ManagedExtension {
        let identity = try identities?.identity(for: bundle.bundleIdentifier) ?? sandbox.policy.extensionUser.sharedCredentials
        let (container, repair) = try ContainerDirectory.prepare(
            root: settings.containersRoot, identifier: bundle.bundleIdentifier, owner: identity)
        switch repair {
        case .none: break
        case .removed(let what):
            log.emit(
                .containerRepaired, [("bundle", .string(bundle.bundleIdentifier)), ("detail", .string("\(what); a new container was made"))]
            )
        case .movedAside(let name, let owner):
            log.emit(
                .containerRepaired,
                [
                    ("bundle", .string(bundle.bundleIdentifier)),
                    (
                        "detail",
                        .string(
                            "the container belonged to uid \(owner), not the extension's; moved aside to \(settings.containersRoot)/\(name) and a new one was made"
                        )
                    )
                ])
        }
        let ceiling = settings.budgetOverrides.applied(to: .defaults(for: bundle.role))
        let (budgets, caps) = bundle.limits.capped(by: ceiling)
        for cap in caps {
            log.emit(
                .limitsCapped,
                [
                    ("bundle", .string(bundle.bundleIdentifier)), ("key", .string(cap.key)),
                    ("asked", .double(cap.asked)), ("granted", .double(cap.granted)),
                    ("detail", .string("SandglassLimits asks for more than the host allows; capped"))
                ])
        }
        let managed = ManagedExtension(app: app, bundle: bundle, container: container, identity: identity, budgets: budgets)
        try attachAppGroups(managed)
        extensions[bundle.bundleIdentifier] = managed
        return managed
    }

    // MARK: activations

    /// Runs one activation: launches the extension if it is not running, sends the request,
    /// and waits for the reply within the activation's budget (over it: SIGKILL, `timeBudget`).
    ///
    /// A `backgroundEvents` activation names its `session`; it is a conversation the delivery of
    /// background events carries on (`started` gives it the request id and the process) and ends
    /// with ``complete(_:_:_:)``.
    ///
    /// A widget's `configuration` (its intent's parameters, JSON) goes just before the request,
    /// to an extension that speaks protocol 4.1 or later (``ProtocolVersion/widgetConfigurations``).
    func activate(
        _ ext: ManagedExtension, _ kind: ActivationKind, context: ActivationContext? = nil,
        configuration: [UInt8] = [],
        session: String? = nil, started: ((RequestID, ExtensionProcess) -> Void)? = nil
    ) async -> ActivationOutcome {
        var process: ExtensionProcess
        repeat {
            switch await ensureRunning(ext) {
            case .success(let p): process = p
            case .failure(let failure): return failure.outcome
            }
            // Ready when ensureRunning returned, but its end may have come first: a launch whose
            // waiters resume after its idle timer fired (a starved loop). Launch it again.
        } while process.state != .ready
        let id = RequestID(nextRequest)
        nextRequest += 1
        let budget = kind.budget(in: ext.budgets)
        let message: Message
        switch kind {
        case .placeholder: message = .placeholderRequest(id, context!)
        case .snapshot: message = .snapshotRequest(id, context!)
        case .timeline: message = .timelineRequest(id, context!)
        case .performUpdate: message = .performUpdateRequest(id)
        case .backgroundEvents: message = .backgroundEventsRequest(id, identifier: session ?? "")
        }
        if let idle = process.idleTimer {
            clock.cancel(idle)
            process.idleTimer = nil
        }
        endQuietWait(process)
        process.messageBudget.activationStarted()
        clock.beginBusy()
        let startedHook = started
        let started = sg_monotonic_ns()
        var fields: [(String, JSONValue)] = [
            ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
            ("activation", .int(Int64(id.rawValue))), ("kind", .string(kind.rawValue))
        ]
        if let context {
            fields += [("widget", .string(context.kind)), ("family", .string(context.family))]
            if context.isPreview { fields.append(("isPreview", true)) }
        }
        if let session { fields.append(("session", .string(session))) }
        fields.append(("budgetMs", .double(budget.milliseconds)))
        log.emit(.activationStart, fields)
        return await withCheckedContinuation { continuation in
            // After a possible executor hop the process may have died meanwhile.
            if let outcome = process.exitOutcome {
                fields.append(("outcome", .string(outcome.label)))
                log.emit(.activationEnd, fields.filter { $0.0 != "budgetMs" })
                clock.endBusy()
                continuation.resume(returning: outcome)
                return
            }
            let due = started + budget.nanoseconds
            let detail = "\(kind.rawValue) ran over its \(format(budget)) budget"
            // The thread kills at the deadline; the loop's timer records that kill, or kills itself.
            let threadDeadline = armOnThread(process, due: due, detail: detail)
            let deadline = loop.schedule(at: due) { [unowned self, unowned process] in
                self.kill(process, of: ext, .timeBudget, detail: detail, deadline: due)
            }
            process.pending[id] = ExtensionProcess.Pending(
                id: id, kind: kind, widgetKind: context?.kind, session: session, started: started, budget: budget,
                deadline: deadline, threadDeadline: threadDeadline, continuation: continuation)
            startedHook?(id, process)
            checkContainer(process, of: ext) // and every 250 ms while the activation lasts
            if let context, !configuration.isEmpty, let hello = process.hello,
                hello.version >= .widgetConfigurations
            {
                let payload = WidgetConfigurationPayload(kind: context.kind, family: context.family, intent: configuration)
                process.channel.send(.widgetConfiguration(id, payload))
            }
            if !process.channel.send(message) {
                protocolViolation(process, of: ext, "stopped reading its IPC channel (\(process.channel.pendingOutput) bytes unread)")
            } else {
                hooks.stepReached(.requestWritten, ext, process)
            }
        }
    }

    private func finish(
        _ pending: ExtensionProcess.Pending, of process: ExtensionProcess, ext: ManagedExtension, _ outcome: ActivationOutcome
    ) {
        loop.cancel(pending.deadline)
        _ = takeBack(pending.threadDeadline, from: process, of: ext) // already settled on the paths that end it in time
        tellThrottled(process, of: ext, now: sg_monotonic_ns(), force: true)
        let ms = Double(sg_monotonic_ns() - pending.started) / 1e6
        var fields: [(String, JSONValue)] = [
            ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
            ("activation", .int(Int64(pending.id.rawValue))), ("kind", .string(pending.kind.rawValue))
        ]
        if let widget = pending.widgetKind { fields.append(("widget", .string(widget))) }
        if let session = pending.session { fields.append(("session", .string(session))) }
        fields += [("outcome", .string(outcome.label)), ("ms", .double((ms * 1000).rounded() / 1000))]
        switch outcome {
        case .killed(let reason): fields.append(("reason", .string(reason.rawValue)))
        case .failed(let reason): fields.append(("error", .string(reason)))
        case .updateResult(let result): fields.append(("result", .string("\(result)")))
        case .entry(let entry): fields.append(("entry", .raw(entryJSON(entry))))
        case .eventsFinished(let count): fields.append(("events", .int(Int64(count))))
        case .timeline(let timeline):
            // Part of the activation: the views the extension evaluated before it answered.
            let views = timeline.entries.compactMap(\.view)
            if !views.isEmpty {
                fields.append(("renderMs", .double((Double(views.reduce(UInt64(0)) { $0 &+ $1.nanoseconds }) / 1e3).rounded() / 1e3)))
            }
        case .declined: break
        }
        log.emit(.activationEnd, fields)
        if outcome.label == "ok", ext.crashLoop.recordSuccess() {
            log.emit(
                .backoffCleared,
                [
                    ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                    ("detail", .string("\(pending.kind.rawValue) answered: the count of failures in a row starts over"))
                ])
        }
        if process.cgroup == nil && process.state != .exiting { process.samplePeak() }
        checkContainer(process, of: ext)
        clock.endBusy()
        pending.continuation.resume(returning: outcome)
        if process.pending.isEmpty && process.state == .ready { scheduleIdle(process, of: ext) }
    }

    /// Ends the pending activation `id` of the extension's live process with `outcome` (when it
    /// is still pending: a kill or an exit may have ended it first).
    func complete(_ ext: ManagedExtension, _ id: RequestID, _ outcome: ActivationOutcome) {
        guard let process = ext.process, let pending = process.pending[id] else { return }
        if takeBack(pending.threadDeadline, from: process, of: ext) { return }
        process.pending.removeValue(forKey: id)
        finish(pending, of: process, ext: ext, outcome)
    }

    // MARK: budget deadlines on the deadline thread

    /// Arms an activation budget's end on the deadline thread, which SIGKILLs the process at `due` unless it
    /// is taken back first; the caller arms the loop's timer for the same instant.
    private func armOnThread(_ process: ExtensionProcess, due: UInt64, detail: String) -> DeadlineKiller.ID? {
        guard let killer, let target = process.killTarget, let id = killer.arm(target, at: due) else { return nil }
        process.threadDeadlines[id] = ExtensionProcess.ThreadDeadline(due: due, detail: detail)
        return id
    }

    /// Takes back the thread's deadline of an activation that ended. True when the
    /// thread had killed the process first: that kill is then recorded, and the activation ends
    /// killed (`timeBudget`) when the process is reaped, its late answer ignored.
    private func takeBack(_ id: DeadlineKiller.ID?, from process: ExtensionProcess, of ext: ManagedExtension) -> Bool {
        if let id, let killer, let deadline = process.threadDeadlines.removeValue(forKey: id),
            case .killed(let at) = killer.settle(id)
        {
            kill(process, of: ext, .timeBudget, detail: deadline.detail, deadline: deadline.due, killedAt: at)
        }
        return process.threadKilledAt != nil
    }

    /// Settles every deadline of `process` still armed on the thread. When the thread killed it,
    /// records that kill (`timeBudget`, at the instant the thread sent it) and returns true.
    @discardableResult
    private func settleThreadDeadlines(_ process: ExtensionProcess, of ext: ManagedExtension) -> Bool {
        guard let killer, !process.threadDeadlines.isEmpty else { return false }
        var first: (deadline: ExtensionProcess.ThreadDeadline, at: UInt64)?
        for (id, deadline) in process.threadDeadlines {
            if case .killed(let at) = killer.settle(id), at < first?.at ?? .max { first = (deadline, at) }
        }
        process.threadDeadlines.removeAll()
        guard let first else { return false }
        kill(process, of: ext, .timeBudget, detail: first.deadline.detail, deadline: first.deadline.due, killedAt: first.at)
        return true
    }

    private func scheduleIdle(_ process: ExtensionProcess, of ext: ManagedExtension) {
        if let idle = process.idleTimer { clock.cancel(idle) }
        process.idleTimer = clock.schedule(after: ext.budgets.idle) { [unowned self, unowned process] in
            process.idleTimer = nil
            self.killWhenQuiet(process, of: ext, checks: 0)
        }
    }

    /// How often, and how many times, an idle process that is still running code is looked at
    /// again before it is killed anyway.
    private static let quietCheckInterval: UInt64 = 200_000
    private static let quietChecks = 100

    /// Kills an idle process — once it is quiet. On the virtual clock its idle budget may pass in
    /// a jump right after its last reply, while it still runs code (a provider that calls
    /// WidgetCenter after its completion): the kill waits, in real time and with the clock held,
    /// until none of its threads is running and the host has read everything it wrote
    /// (at most 20 ms).
    private func killWhenQuiet(_ process: ExtensionProcess, of ext: ManagedExtension, checks: Int) {
        process.quietTimer = nil
        guard process.pending.isEmpty, process.state == .ready else { return endQuietWait(process) }
        if checks < Self.quietChecks && !process.isQuiet() {
            if !process.holdsQuietBusy {
                process.holdsQuietBusy = true
                clock.beginBusy()
            }
            process.quietTimer = loop.schedule(at: sg_monotonic_ns() + Self.quietCheckInterval) { [unowned self, unowned process] in
                self.killWhenQuiet(process, of: ext, checks: checks + 1)
            }
            return
        }
        endQuietWait(process)
        kill(process, of: ext, .idle, detail: "idle for \(format(ext.budgets.idle)) after its last activation")
    }

    private func endQuietWait(_ process: ExtensionProcess) {
        if let timer = process.quietTimer {
            loop.cancel(timer)
            process.quietTimer = nil
        }
        if process.holdsQuietBusy {
            process.holdsQuietBusy = false
            clock.endBusy()
        }
    }

    // MARK: launch

    /// The extension's ready process, launching one if needed — not before its backoff after
    /// failures has ended, and never once it has failed permanently.
    func ensureRunning(_ ext: ManagedExtension) async -> Result<ExtensionProcess, LaunchFailure> {
        if isShuttingDown && ext.process == nil { return .failure(.shuttingDown) }
        if ext.process == nil {
            if ext.crashLoop.isFailedPermanently { return .failure(.failedPermanently) }
            if let until = ext.crashLoop.blockedUntil(now: clock.now) {
                await backoffWaits.wait(until: until, for: ext)
                return await ensureRunning(ext)
            }
        }
        if let process = ext.process {
            switch process.state {
            case .ready: return .success(process)
            case .launching:
                return await waitForLaunch(process)
            case .exiting:
                // Wait for the dying process to be reaped, then start over.
                await withCheckedContinuation { continuation in
                    if ext.process !== process { continuation.resume() } else { exitWaiters.append(continuation) }
                }
                return await ensureRunning(ext)
            }
        }
        let process: ExtensionProcess
        do {
            process = try spawn(ext)
        } catch {
            log.emit(.spawnFailed, [("bundle", .string(ext.identifier)), ("error", .string("\(error)"))])
            recordFailure(of: ext, pid: nil, cause: "spawn failed")
            return .failure(.spawn("\(error)"))
        }
        return await waitForLaunch(process)
    }

    // MARK: crash-loop backoff

    /// Records a death the extension is to blame for and schedules its backoff, or marks it
    /// failed permanently.
    private func recordFailure(of ext: ManagedExtension, pid: Int32?, cause: String) {
        let policy = settings.relaunchBackoff
        let now = clock.now
        var fields: [(String, JSONValue)] = [("bundle", .string(ext.identifier))]
        if let pid { fields.append(("pid", .int(Int64(pid)))) }
        switch ext.crashLoop.recordFailure(at: now, cause: cause, policy: policy) {
        case .backoff(let delay, let until):
            fields += [
                ("failures", .int(Int64(ext.crashLoop.failures.count))), ("cause", .string(cause)),
                ("delayMs", .double(delay.milliseconds)), ("until", .double(Double(until) / 1e6)),
                ("untilDate", .string(iso8601(clock.date(at: until))))
            ]
            log.emit(.backoffScheduled, fields)
        case .failedPermanently:
            let failures = ext.crashLoop.failures.suffix(policy.permanentFailureCount)
            let span = now - (failures.first?.at ?? now)
            fields += [
                ("failures", .int(Int64(failures.count))), ("withinMs", .double(Double(span) / 1e6)),
                ("windowMs", .double(policy.permanentFailureWindow.milliseconds)),
                ("causes", .array(failures.map { .string($0.cause) }))
            ]
            log.emit(.extensionFailedPermanently, fields)
        }
    }

    /// Why `process` ended, when it is a failure the extension is to blame for (`nil` otherwise).
    private func failureCause(_ process: ExtensionProcess, _ record: ExitRecord, hadPending: Bool) -> String? {
        if let reason = record.killReason {
            switch reason {
            case .timeBudget, .memory, .cpu, .protocolViolation, .resource, .sandboxViolation:
                return process.helloAt == nil ? "\(reason.rawValue) during launch" : reason.rawValue
            case .idle, .chaos, .hostShutdown, .sessionConflict:
                return nil
            }
        }
        if let signal = record.signal { return "crashed (\(signalName(signal)))" }
        if let status = record.status, status != 0 { return "exited with status \(status)" }
        if process.helloAt == nil { return "exited before hello" }
        if hadPending { return "exited during an activation" }
        return nil
    }

    /// Forgets the extension's failures, a permanent failure included; waiting launches go ahead.
    func clearFailures(_ ext: ManagedExtension) {
        let wasFailed = ext.crashLoop.isFailedPermanently
        let count = ext.crashLoop.failures.count
        ext.crashLoop.clear()
        log.emit(
            .backoffCleared,
            [
                ("bundle", .string(ext.identifier)), ("failures", .int(Int64(count))),
                ("wasFailedPermanently", .bool(wasFailed)), ("detail", "cleared by the host")
            ])
        backoffWaits.end { $0 === ext }
    }

    private func waitForLaunch(_ process: ExtensionProcess) async -> Result<ExtensionProcess, LaunchFailure> {
        // The body of withCheckedContinuation may run after an executor hop, when the hello (or
        // the death) has already been handled: it looks at the state before it waits.
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, LaunchFailure>, Never>) in
            switch process.state {
            case .ready: continuation.resume(returning: .success(()))
            case .exiting where process.exitOutcome != nil: continuation.resume(returning: .failure(.died(process.exitOutcome!)))
            default: process.launchWaiters.append(continuation)
            }
        }
        return result.map { process }
    }

    private func spawn(_ ext: ManagedExtension) throws -> ExtensionProcess {
        var environment = settings.environment
        environment["SANDGLASS_IPC_FD"] = "3"
        environment["SANDGLASS_BUNDLE_IDENTIFIER"] = ext.identifier
        environment["SANDGLASS_CONTAINER"] = ext.container
        if let principalClass = ext.bundle.principalClass {
            // NSExtensionMain() makes this class (Info.plist's NSExtension.NSExtensionPrincipalClass).
            environment["SANDGLASS_PRINCIPAL_CLASS"] = principalClass
        }
        environment["HOME"] = ext.container
        // Foundation on Linux takes the home directory from the user database, not HOME,
        // unless CFFIXED_USER_HOME is set: with it, FileManager's user directories are the container.
        environment["CFFIXED_USER_HOME"] = ext.container
        environment["TMPDIR"] = ext.container + "/tmp"
        // UserDefaults keeps its suites in Library/Preferences, as on Apple's platforms (the SDK
        // brings an app group's suite from the group's container there and back).
        environment["XDG_CONFIG_HOME"] = ext.container + "/Library/Preferences"
        if let groups = Self.appGroupsEnvironment(ext.appGroups) { environment["SANDGLASS_APP_GROUPS"] = groups }
        environment["PATH"] = "/usr/bin:/bin"
        let started = sg_monotonic_ns()
        let (spawned, cgroup) = try sandbox.spawn(
            executable: ext.bundle.executablePath,
            environment: environment,
            container: ext.container,
            executableRoot: ext.bundle.path,
            user: ext.identity,
            memoryBytes: ext.budgets.memoryBytes,
            containerBytes: ext.budgets.containerBytes,
            group: ext.identifier,
            sharedDirectories: ext.appGroups.keys.sorted().compactMap { ext.appGroups[$0] },
            supplementaryGroups: ext.appGroupGids
        )
        let spawnMs = Double(sg_monotonic_ns() - started) / 1e6
        cgroup?.resetPeak()
        let process = ExtensionProcess(spawned: spawned, cgroup: cgroup, spawnedAt: started, messageLimits: settings.messageLimits)
        ext.process = process
        ext.launches += 1
        process.holdsBusy = true
        clock.beginBusy()
        process.channel = Channel(fd: spawned.channelFD, loop: loop, maximumFrameLength: settings.maximumFrameLength) {
            [unowned self, unowned process] event in self.handle(event, from: process, of: ext)
        }
        process.killTarget = killer?.target(pidfd: process.pidfd, channelFD: spawned.channelFD, listenerFD: spawned.listenerFD ?? -1)
        process.channel.killTarget = process.killTarget
        // The pid, not the process: the process holds its reader, which must not hold it back.
        let pid = process.pid
        process.output = OutputReader(fd: spawned.outputFD, loop: loop) { [unowned self] line in
            self.log.emit(
                .log,
                [
                    ("bundle", .string(ext.identifier)), ("pid", .int(Int64(pid))),
                    ("stream", "output"), ("message", .string(line))
                ])
        }
        loop.register(process.pidfd, events: UInt32(SG_EPOLLIN)) { [unowned self, unowned process] _ in
            self.reap(process, of: ext)
        }
        if let listener = spawned.listenerFD {
            loop.register(listener, events: UInt32(SG_EPOLLIN)) { [unowned self, unowned process] mask in
                self.handleDenial(process, of: ext, mask: mask)
            }
        }
        log.emit(
            .spawned,
            [
                ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                ("launch", .int(Int64(ext.launches))), ("ms", .double((spawnMs * 1000).rounded() / 1000)),
                ("childSetupMs", .double(Double(spawned.setupNanoseconds / 1000) / 1000)),
                ("cgroupJoinMs", .double(Double(spawned.cgroupJoinNanoseconds / 1000) / 1000)),
                ("memoryLimitBytes", .int(Int64(ext.budgets.memoryBytes))),
                ("memoryEnforcement", .string(sandbox.memoryEnforcement))
            ])
        // The launch budget stays on the loop's timer (activations' budgets are on the deadline thread).
        process.launchTimer = loop.schedule(at: started + ext.budgets.launch.nanoseconds) { [unowned self, unowned process] in
            process.launchTimer = nil
            guard process.state == .launching else { return }
            self.kill(
                process, of: ext, .timeBudget, detail: "no hello within the \(format(ext.budgets.launch)) launch budget",
                deadline: started + ext.budgets.launch.nanoseconds)
        }
        if cgroup == nil && sandbox.policy.cgroups == false || cgroup == nil {
            startWatchdog(process, of: ext)
        }
        checkContainer(process, of: ext)
        hooks.stepReached(.spawned, ext, process)
        return process
    }

    private func startWatchdog(_ process: ExtensionProcess, of ext: ManagedExtension) {
        let interval = sandbox.policy.watchdogInterval.nanoseconds
        func arm() {
            process.watchdogTimer = loop.schedule(at: sg_monotonic_ns() + interval) { [unowned self, unowned process] in
                guard process.state != .exiting else { return }
                let rss = process.residentBytes()
                if let rss { process.sampledPeakKiB = max(process.sampledPeakKiB, UInt64(rss) >> 10) }
                if let rss, rss > ext.budgets.memoryBytes {
                    self.kill(
                        process, of: ext, .memory,
                        detail: "resident memory \(rss >> 10) KiB over the \(ext.budgets.memoryBytes >> 10) KiB budget (watchdog)")
                } else {
                    arm()
                }
            }
        }
        arm()
    }

    // MARK: messages

    private func handle(_ event: Channel.Event, from process: ExtensionProcess, of ext: ManagedExtension) {
        switch event {
        case .message(let message):
            handle(message, from: process, of: ext)
        case .violation(let error):
            protocolViolation(process, of: ext, error.description)
        case .closed:
            process.killTarget?.forgetChannel()
            process.channel.close()
            guard process.state != .exiting else { return }
            // A dying process closes its descriptors before its pidfd says it exited (a kernel
            // OOM kill, a crash): wait a moment for the pidfd. A process still alive then, without
            // its channel, can do nothing useful and is killed.
            process.channelClosedTimer = loop.schedule(at: sg_monotonic_ns() + 200_000_000) { [unowned self, unowned process] in
                process.channelClosedTimer = nil
                guard process.state != .exiting else { return }
                self.protocolViolation(process, of: ext, "closed its IPC channel while still running")
            }
        }
    }

    private func handle(_ message: Message, from process: ExtensionProcess, of ext: ManagedExtension) {
        guard process.state != .exiting else { return }
        if process.state == .launching {
            guard case .hello(let hello) = message else {
                return protocolViolation(process, of: ext, "sent \(message.type) before hello")
            }
            return handleHello(hello, from: process, of: ext)
        }
        guard admit(message, from: process, of: ext) else { return }
        switch message {
        case .hello:
            protocolViolation(process, of: ext, "sent a second hello")
        case .entryReply(let id, let entry):
            reply(id, .entry(entry), accepts: [.placeholder, .snapshot], message, process, ext)
        case .timelineReply(let id, let timeline):
            reply(id, .timeline(timeline), accepts: [.timeline], message, process, ext)
        case .updateResultReply(let id, let result):
            reply(id, .updateResult(result), accepts: [.performUpdate], message, process, ext)
        case .error(let report):
            if let id = report.requestID {
                guard let pending = process.pending[id] else {
                    return protocolViolation(process, of: ext, "sent an error for request \(id), which is not pending")
                }
                if takeBack(pending.threadDeadline, from: process, of: ext) { return }
                process.pending.removeValue(forKey: id)
                finish(pending, of: process, ext: ext, .failed("\(report.code): \(report.message)"))
            } else {
                let text = MessageBudget.cut(report.message, to: settings.messageLimits.logMessageBytes)
                log.emit(
                    .extensionError,
                    [
                        ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                        ("code", .string("\(report.code)")), ("message", .string(text))
                    ])
            }
        case .reloadTimelines(let kind):
            hooks.reloadRequested(ext, kind)
        case .reloadAllTimelines:
            hooks.reloadRequested(ext, nil)
        case .log(let record):
            let text = MessageBudget.cut(record.message, to: settings.messageLimits.logMessageBytes)
            log.emit(
                .log,
                [
                    ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                    ("stream", "sdk"), ("level", .string(record.level.description)), ("message", .string(text))
                ])
        case .osLog(let record):
            // Logger / os_log: the same event as the SDK's lines, with the logger's subsystem and category.
            let limit = settings.messageLimits.logMessageBytes
            log.emit(
                .log,
                [
                    ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                    ("stream", "oslog"), ("level", .string(record.level.description)),
                    ("message", .string(MessageBudget.cut(record.message, to: limit))),
                    ("subsystem", .string(MessageBudget.cut(record.subsystem, to: MessageLimits.loggerNameBytes))),
                    ("category", .string(MessageBudget.cut(record.category, to: MessageLimits.loggerNameBytes)))
                ])
        case .diagnostic(let report):
            hooks.diagnosticReceived(ext, process, report)
        case .pong(let n):
            guard let probe = process.pingProbe, probe.number == n else {
                return protocolViolation(process, of: ext, "sent pong \(n) for no ping")
            }
            process.pingProbe = nil
            probe.answered(true)
        case .attachSession, .invalidateSession, .backgroundEventsReply, .eventHandled, .eventsFinished,
            .createTask, .resumeTask, .cancelTask, .getTasks, .locationRequest, .currentConfigurationsRequest:
            hooks.extensionMessage(ext, process, message)
        case .welcome, .placeholderRequest, .snapshotRequest, .timelineRequest, .performUpdateRequest, .ping,
            .sessionAttached, .sessionInvalidated, .backgroundEventsRequest, .allEventsDelivered, .taskCreated,
            .taskList, .taskProgress, .taskResponse, .taskData, .downloadFinished, .taskCompleted,
            .locationAuthorization, .locationUpdate, .locationFailure, .widgetConfiguration, .currentConfigurations:
            protocolViolation(process, of: ext, "sent \(message.type), which only the host sends")
        }
    }

    /// Whether `message` is within the process's message budget. Dropped messages are counted
    /// and told in `messages.throttled` about once a second; a flood of requests kills the
    /// process (`resource`).
    private func admit(_ message: Message, from process: ExtensionProcess, of ext: ManagedExtension) -> Bool {
        let kind = MessageBudget.kind(of: message)
        var bytes = 0
        switch message {
        case .log(let record): bytes = record.message.utf8.count
        case .osLog(let record): bytes = record.textBytes
        case .error(let report): bytes = report.message.utf8.count
        default: break
        }
        let now = sg_monotonic_ns()
        let verdict = process.messageBudget.admit(kind, bytes: bytes, now: now)
        tellThrottled(process, of: ext, now: now)
        switch verdict {
        case .accept:
            return true
        case .drop:
            return false
        case .kill(let why):
            kill(process, of: ext, .resource, detail: why)
            return false
        }
    }

    /// Records what the message budget dropped or coalesced since it was last told.
    private func tellThrottled(_ process: ExtensionProcess, of ext: ManagedExtension, now: UInt64, force: Bool = false) {
        for dropped in process.messageBudget.takeDropped(now: now, force: force) {
            var fields: [(String, JSONValue)] = [
                ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                ("kind", .string(dropped.kind.rawValue)), ("messages", .int(Int64(dropped.messages)))
            ]
            if dropped.kind == .log { fields.append(("bytes", .int(Int64(dropped.bytes)))) }
            fields.append(("detail", .string(dropped.detail)))
            log.emit(.messagesThrottled, fields)
        }
    }

    private func reply(
        _ id: RequestID, _ outcome: ActivationOutcome, accepts kinds: Set<ActivationKind>,
        _ message: Message, _ process: ExtensionProcess, _ ext: ManagedExtension
    ) {
        guard let pending = process.pending[id] else {
            return protocolViolation(process, of: ext, "sent \(message.type) for request \(id), which is not pending")
        }
        guard kinds.contains(pending.kind) else {
            return protocolViolation(process, of: ext, "answered the \(pending.kind.rawValue) request \(id) with \(message.type)")
        }
        hooks.stepReached(.replyRead, ext, process)
        if takeBack(pending.threadDeadline, from: process, of: ext) { return }
        process.pending.removeValue(forKey: id)
        finish(pending, of: process, ext: ext, outcome)
    }

    private func handleHello(_ hello: Hello, from process: ExtensionProcess, of ext: ManagedExtension) {
        guard let version = ProtocolVersion.current.negotiated(with: hello.version) else {
            let text =
                "protocol version \(hello.version) is not supported: this host speaks \(ProtocolVersion.current.major).x; rebuild the extension against a matching Sandglass SDK"
            process.channel.send(.error(ErrorReport(code: .unsupportedVersion, message: text)))
            return protocolViolation(process, of: ext, text)
        }
        guard hello.bundleIdentifier == ext.identifier else {
            return protocolViolation(process, of: ext, "said hello as \(hello.bundleIdentifier), but its bundle is \(ext.identifier)")
        }
        guard hello.role == ext.bundle.role else {
            return protocolViolation(
                process, of: ext, "said hello as a \(hello.role) extension, but its Info.plist declares \(ext.bundle.point)")
        }
        if let timer = process.launchTimer { loop.cancel(timer) }
        process.launchTimer = nil
        process.hello = hello
        process.helloAt = sg_monotonic_ns()
        process.state = .ready
        ext.hello = hello
        let ms = Double(sg_monotonic_ns() - process.spawnedAt) / 1e6
        process.channel.send(
            .welcome(Welcome(version: version, clockMode: clock.mode, clockEpoch: clock.epoch, containerPath: ext.container)))
        log.emit(
            .hello,
            [
                ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                ("ms", .double((ms * 1000).rounded() / 1000)), ("version", .string(hello.version.description)),
                ("kinds", .array(hello.widgets.map { .string($0.kind) })),
                ("families", .object(hello.widgets.map { ($0.kind, .array($0.supportedFamilies.map(JSONValue.string))) }))
            ])
        hooks.stepReached(.hello, ext, process)
        checkContainer(process, of: ext) // what its launch wrote
        releaseBusy(process)
        hooks.helloReceived(ext, hello)
        let waiters = process.launchWaiters
        process.launchWaiters.removeAll()
        for waiter in waiters { waiter.resume(returning: .success(())) }
        if process.pending.isEmpty { scheduleIdle(process, of: ext) }
    }

    private func protocolViolation(_ process: ExtensionProcess, of ext: ManagedExtension, _ detail: String) {
        guard process.state != .exiting else { return }
        log.emit(.protocolViolation, [("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))), ("error", .string(detail))])
        kill(process, of: ext, .protocolViolation, detail: detail)
    }

    // MARK: ping

    /// Sends `ping` and calls `answered` on the loop when the `pong` arrives — or with false when
    /// the process ends first (one probe at a time).
    func ping(_ ext: ManagedExtension, number: UInt64, answered: @escaping (Bool) -> Void) -> Bool {
        guard let process = ext.process, process.state == .ready, process.pingProbe == nil else { return false }
        process.pingProbe = ExtensionProcess.PingProbe(number: number, answered: answered)
        return process.channel.send(.ping(number))
    }

    /// Sends `count` pings one after the other; calls `done` with each round trip in nanoseconds.
    func pingChain(_ ext: ManagedExtension, count: Int, done: @escaping ([UInt64]) -> Void) {
        var samples: [UInt64] = []
        samples.reserveCapacity(count)
        func next() {
            let started = sg_monotonic_ns()
            let sent = ping(ext, number: UInt64(samples.count)) { ok in
                guard ok else { return done(samples) }
                samples.append(sg_monotonic_ns() - started)
                if samples.count == count { done(samples) } else { next() }
            }
            if !sent { done(samples) }
        }
        next()
    }

    // MARK: denials

    private func handleDenial(_ process: ExtensionProcess, of ext: ManagedExtension, mask: UInt32) {
        guard let listener = process.listenerFD else { return }
        // The call waits for the host's verdict: its time is not the extension's (deadline thread).
        process.killTarget?.reading(true)
        defer { process.killTarget?.reading(false) }
        if mask & UInt32(SG_EPOLLIN) != 0 {
            var note = sg_notification()
            let rc = sg_notify_receive(listener, &note)
            if rc == 0 {
                var name = [CChar](repeating: 0, count: 64)
                sg_syscall_name(note.syscall_nr, &name, name.count)
                let syscall = name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                let error = SeccompProgram.errno(forDenied: syscall)
                _ = sg_notify_deny(listener, note.id, error)
                process.deniedCount += 1
                var fields: [(String, JSONValue)] = [
                    ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                    ("syscall", .string(syscall)), ("errno", .int(Int64(error))),
                    ("error", .string(errnoName(error)))
                ]
                if let detail = deniedCallDetail(syscall, note) { fields.append(("call", .string(detail))) }
                if note.pid != UInt32(process.pid) { fields.append(("thread", .int(Int64(note.pid)))) }
                log.emit(.sandboxDenied, fields)
            }
        }
        if mask & UInt32(SG_EPOLLHUP | SG_EPOLLERR) != 0 { closeListener(process) }
    }

    private func closeListener(_ process: ExtensionProcess) {
        guard let listener = process.listenerFD else { return }
        process.killTarget?.forgetListener()
        loop.unregister(listener)
        close(listener)
        process.listenerFD = nil
    }

    // MARK: kill and reap

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
        guard process.killReason == nil else { return }
        if settleThreadDeadlines(process, of: ext) { return }
        process.killReason = reason
        let wasLaunching = process.state == .launching
        process.state = .exiting
        clock.beginBusy() // until reaped: nothing else happens on a virtual clock meanwhile
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

    private func reap(_ process: ExtensionProcess, of ext: ManagedExtension) {
        var status: Int32 = 0
        var cpuMs: UInt64 = 0
        var rssKiB: UInt64 = 0
        let rc = sg_reap(process.pid, &status, &cpuMs, &rssKiB)
        var reapedElsewhere = false
        if rc == -ECHILD {
            // Something else in this process waited for our child (a waitpid(-1) in a library):
            // the status is lost, but the process is gone and everything else must be cleaned up.
            reapedElsewhere = true
            log.emit(
                .hostWarning,
                [
                    ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                    ("warning", "the process was reaped by someone else in the host process; its exit status is unknown")
                ])
        } else if rc != 1 {
            if rc < 0 { log.emit(.hostError, [("error", .string("wait4(\(process.pid)) failed: errno \(-rc)"))]) }
            return
        }
        // Did the deadline thread kill it? Recorded before its exit.
        settleThreadDeadlines(process, of: ext)
        let reapedAt = sg_monotonic_ns()
        tellThrottled(process, of: ext, now: reapedAt, force: true)
        process.killTarget?.release() // before the pidfd is closed: the thread never signals a reused descriptor
        process.killTarget = nil
        loop.unregister(process.pidfd)
        close(process.pidfd)
        let peakKiB = process.cgroup?.peakBytes().map { UInt64($0) >> 10 } ?? process.sampledPeakKiB
        var record = ExitRecord(pid: process.pid, cpuMilliseconds: cpuMs, peakRSSKiB: peakKiB)
        if reapedElsewhere {
            record.signal = process.killReason != nil ? SIGKILL : nil
        } else if sg_wifsignaled(status) != 0 {
            record.signal = sg_wtermsig(status)
        } else {
            record.status = sg_wexitstatus(status)
        }

        let wasKilled = process.killReason != nil
        if process.killReason == nil {
            // Not killed by the host: the kernel's OOM killer (cgroup), RLIMIT_CPU, or its own end.
            var detail = ""
            if let cgroup = process.cgroup, cgroup.oomKillCount() > process.oomKillsAtSpawn {
                process.killReason = .memory
                detail = "over the \(ext.budgets.memoryBytes >> 10) KiB memory limit (cgroup OOM kill)"
            } else if record.signal == SIGXCPU
                || (record.signal == SIGKILL && cpuMs >= sandbox.policy.cpuSeconds * 1000 && sandbox.policy.rlimits)
            {
                process.killReason = .cpu
                detail = "RLIMIT_CPU of \(sandbox.policy.cpuSeconds) s used up"
            } else if record.signal == SIGXFSZ {
                process.killReason = .resource
                detail = "a file reached the container quota of \(ext.budgets.containerBytes >> 10) KiB (RLIMIT_FSIZE)"
            } else if let violation = record.sandboxViolation {
                process.killReason = .sandboxViolation
                detail = violation
            }
            if let reason = process.killReason {
                log.emit(
                    .killed,
                    [
                        ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                        ("reason", .string(reason.rawValue)), ("detail", .string(detail))
                    ])
            }
        }
        record.killReason = process.killReason
        process.state = .exiting
        if let timer = process.launchTimer { loop.cancel(timer) }
        if let timer = process.idleTimer { clock.cancel(timer) }
        if let timer = process.watchdogTimer { loop.cancel(timer) }
        if let timer = process.channelClosedTimer { loop.cancel(timer) }
        stopCheckingContainer(process)
        endQuietWait(process)
        process.output.finish()
        process.channel.close()
        closeListener(process)

        var fields: [(String, JSONValue)] = [("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid)))]
        if let s = record.status { fields.append(("status", .int(Int64(s)))) }
        if let s = record.signal { fields.append(("signal", .string(signalName(s)))) }
        if let reason = record.killReason { fields.append(("reason", .string(reason.rawValue))) }
        fields += [
            ("cpuMs", .int(Int64(cpuMs))), ("peakRSSKiB", .int(Int64(peakKiB))),
            ("lifetimeMs", .double(Double((reapedAt - process.spawnedAt) / 1000) / 1000)),
            ("reapedAtNs", .int(Int64(reapedAt)))
        ]
        if process.deniedCount > 0 { fields.append(("denials", .int(Int64(process.deniedCount)))) }
        log.emit(.exited, fields)

        let hadPending = !process.pending.isEmpty
        let outcome: ActivationOutcome =
            process.killReason.map { .killed($0) }
            ?? .failed("the extension ended (\(record.summary)) before answering")
        process.exitOutcome = outcome
        for pending in process.pending.values.sorted(by: { $0.id < $1.id }) {
            process.pending.removeValue(forKey: pending.id)
            finish(pending, of: process, ext: ext, outcome)
        }
        let waiters = process.launchWaiters
        process.launchWaiters.removeAll()
        for waiter in waiters { waiter.resume(returning: .failure(.died(outcome))) }
        if let probe = process.pingProbe {
            process.pingProbe = nil
            probe.answered(false)
        }
        if let cause = failureCause(process, record, hadPending: hadPending), !isShuttingDown {
            recordFailure(of: ext, pid: process.pid, cause: cause)
        }
        releaseBusy(process)
        if wasKilled { clock.endBusy() }
        if ext.process === process { ext.process = nil }
        hooks.processExited(ext, record)
        let exits = exitWaiters
        exitWaiters.removeAll()
        for waiter in exits { waiter.resume() }
    }

    private func releaseBusy(_ process: ExtensionProcess) {
        if process.holdsBusy {
            process.holdsBusy = false
            clock.endBusy()
        }
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

/// `1 s`, `250 ms`, `2 min`.
func format(_ duration: Duration) -> String {
    let ms = duration.milliseconds
    if ms >= 3_600_000 && ms.truncatingRemainder(dividingBy: 3_600_000) == 0 { return "\(Int(ms / 3_600_000)) h" }
    if ms >= 60_000 && ms.truncatingRemainder(dividingBy: 60_000) == 0 { return "\(Int(ms / 60_000)) min" }
    if ms >= 1000 && ms.truncatingRemainder(dividingBy: 1000) == 0 { return "\(Int(ms / 1000)) s" }
    if ms >= 1000 { return String(format: "%.1f s", ms / 1000) }
    return "\(Int(ms.rounded())) ms"
}

/// `EACCES`, `EPERM`, …
func errnoName(_ e: Int32) -> String {
    switch e {
    case EPERM: "EPERM"
    case EACCES: "EACCES"
    case ENOSYS: "ENOSYS"
    case EAGAIN: "EAGAIN"
    default: "errno \(e)"
    }
}

/// A readable form of the arguments of a denied call that matter (`socket(AF_INET)`).
func deniedCallDetail(_ syscall: String, _ note: sg_notification) -> String? {
    switch syscall {
    case "socket":
        let families: [UInt64: String] = [2: "AF_INET", 10: "AF_INET6", 16: "AF_NETLINK", 17: "AF_PACKET"]
        return "socket(\(families[note.args.0] ?? "family \(note.args.0)"))"
    case "clone":
        return "clone(flags 0x\(String(note.args.0, radix: 16)))"
    default:
        return nil
    }
}

/// The entry JSON with its date, relevance, text and view, for the event log.
func entryJSON(_ entry: EntryPayload) -> String {
    var fields: [(String, JSONValue)] = [("date", .double(entry.date))]
    if let r = entry.relevance {
        fields.append(("relevance", .object([("score", .double(Double(r.score))), ("duration", .double(r.duration))])))
    }
    if let text = entry.text { fields.append(("text", .string(text))) }
    fields.append(("entry", .raw(validJSON(entry.json))))
    if let view = entry.view { fields.append(("view", view.json)) }
    return JSONValue.object(fields).serialized
}

/// The extension's JSON bytes when they parse as JSON, else the text as a JSON string.
func validJSON(_ bytes: [UInt8]) -> String {
    if (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil {
        return String(decoding: bytes, as: UTF8.self)
    }
    return JSONValue.string(String(decoding: bytes, as: UTF8.self)).serialized
}

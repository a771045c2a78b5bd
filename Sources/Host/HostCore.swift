import CSandbox
import Foundation
import SandglassIPC

/// The host's state and decisions, isolated to its event loop: the loop thread is this actor's
/// executor, so file-descriptor callbacks, timers and async work all run in one order.
actor HostCore {
    nonisolated let loop: EventLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    /// The parts, made on the loop by ``setUp(_:)``.
    final class Parts {
        let configuration: HostConfiguration
        let clock: RunClock
        let log: EventLog
        let sandbox: Sandbox
        let supervisor: Supervisor
        let scheduler: TimelineScheduler
        let system: SystemState
        /// See ``HostCore/advance(by:until:)``.
        var advanceCursor = 0
        /// The virtual clock's page, read by extensions through the clock shim.
        let clockPage: ClockPage?
        let screen: Screen
        let location: LocationService
        let today: TodayScheduler
        let journal: Journal
        let network: NetworkService
        /// Kills armed at protocol steps (chaos testing).
        let chaos: ChaosHooks

        init(_ configuration: HostConfiguration, loop: EventLoop) throws {
            self.configuration = configuration
            // Checked before anything is made (directories, cgroups) that a refusal would leave behind.
            let widgetConfigurations = try WidgetConfigurations.validated(configuration.widgetConfigurations)
            try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
            try DataDirectory.prepare(configuration.dataDirectory)
            clock = RunClock(mode: configuration.clock, loop: loop)
            log = EventLog(clock: clock)
            log.historyLimit = configuration.eventHistoryLimit.map { max(1, $0) } ?? .max
            log.historyByteLimit = configuration.eventHistoryBytes.map { max(1, $0) } ?? .max
            if let path = configuration.logPath { log.add(try JSONLinesFile(path: path)) }
            if let trace = configuration.trace { log.add(TerminalTrace(trace)) }
            if let blocked = ExtensionFiles.unreachableAncestor(
                of: configuration.dataDirectory, for: configuration.sandbox.extensionUser,
                range: configuration.sandbox.identityRange)
            {
                throw HostSetupError(
                    description: """
                        extensions run as an unprivileged user and could not reach the data directory \(configuration.dataDirectory): \
                        \(blocked) is closed to it. Choose a data directory under /tmp or /var, or open that directory (chmod o+x).
                        """)
            }
            try HostCapabilities.check(for: configuration.sandbox.extensionUser)
            var policy = configuration.sandbox
            // The clock shim and its page (the virtual clock) live in the runtime directory.
            policy.readablePaths.append(configuration.dataDirectory + "/Runtime")
            sandbox = try Sandbox(policy: policy, dataDirectory: configuration.dataDirectory)
            if configuration.requiresEverySandboxLayer, configuration.launcher == nil {
                let gaps = sandbox.summary.filter { SandboxGap.isGap($0.value) }.sorted { $0.key < $1.key }
                if !gaps.isEmpty {
                    sandbox.close()
                    let off = gaps.filter { $0.value == "off" }.map(\.key)
                    let missing = gaps.filter { $0.value != "off" }
                    var remedies: [String] = []
                    if !off.isEmpty { remedies.append("turn \(off.joined(separator: ", ")) back on in the host's configuration") }
                    if !missing.isEmpty {
                        remedies.append("run the host as root on Linux 5.13 or later with Landlock enabled and a writable cgroup")
                    }
                    throw HostSetupError(
                        description: """
                            the sandbox would go without \(gaps.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")), \
                            and every layer is required (--require-sandbox): \(remedies.joined(separator: ", and ")), \
                            or start it without --require-sandbox
                            """)
                }
            }
            var environment = configuration.extensionEnvironment
            if configuration.revealsPrivateLogValues { environment["SANDGLASS_LOG_PRIVATE"] = "1" }
            if configuration.clock == .virtual && configuration.extensionsFollowVirtualClock {
                // The extensions' Date() follows the run clock: a preloaded shim reads its offset
                // from a page the host updates on every jump.
                let runtime = configuration.dataDirectory + "/Runtime"
                try FileManager.default.createDirectory(
                    atPath: runtime, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o711])
                let shim = try ClockShim.install(configured: configuration.clockShimPath, into: runtime)
                let page = try ClockPage(path: runtime + "/clock", offset: clock.realtimeOffset)
                clock.onJump = { [unowned page] offset in page.publish(offset) }
                environment["LD_PRELOAD"] = shim
                environment["SANDGLASS_CLOCK_PAGE"] = page.path
                clockPage = page
            } else {
                clockPage = nil
            }
            supervisor = Supervisor(
                loop: loop, clock: clock, log: log, sandbox: sandbox, launcher: configuration.launcher,
                settings: .init(
                    maximumFrameLength: configuration.maximumFrameLength,
                    containersRoot: configuration.dataDirectory + "/Containers",
                    appGroupsRoot: configuration.dataDirectory + "/AppGroups",
                    messageLimits: configuration.messageLimits,
                    budgetOverrides: configuration.budgetOverrides,
                    environment: environment,
                    relaunchBackoff: configuration.relaunchBackoff))
            system = SystemState(visibility: configuration.visibility.widgetVisibility)
            scheduler = TimelineScheduler(supervisor: supervisor, clock: clock, log: log, system: system)
            scheduler.debugReloads = configuration.debugReloads
            scheduler.configurations = widgetConfigurations
            screen = Screen(schedule: configuration.visibility, clock: clock, log: log)
            location = LocationService(
                settings: configuration.location, clock: clock, log: log, screen: screen,
                supervisor: supervisor, scheduler: scheduler)
            today = TodayScheduler(supervisor: supervisor, clock: clock, log: log, screen: screen)
            today.visibleInterval = configuration.today.visibleInterval
            today.backgroundInterval = configuration.today.backgroundInterval
            journal = try Journal(path: configuration.dataDirectory + "/journal.sqlite")
            let transport = HTTPTransport(connectPolicy: configuration.connectPolicy, concurrency: configuration.concurrentTransfers)
            let transfers = try TransferService(
                journal: journal, log: log, clock: clock, directory: configuration.dataDirectory + "/Transfers", transport: transport)
            let registry = SessionRegistry()
            transfers.quotaBytes = { [unowned supervisor] bundle in
                Int64(supervisor.extensions[bundle]?.budgets.containerBytes ?? Budgets().containerBytes)
            }
            let delivery = EventDelivery(
                journal: journal, supervisor: supervisor, registry: registry, clock: clock, log: log, ledger: transfers.ledger)
            network = NetworkService(
                journal: journal, registry: registry, transfers: transfers, delivery: delivery,
                inline: try InlineRequests(
                    log: log, clock: clock, directory: configuration.dataDirectory + "/Transfers/Inline", transport: transport,
                    ledger: transfers.ledger),
                transport: transport, supervisor: supervisor, log: log)
            chaos = ChaosHooks(log: log)
        }
    }

    private var parts: Parts!
    private(set) var apps: [AppBundle] = []
    /// Where each installed app was installed from, by its bundle identifier.
    private var installedFrom: [String: String] = [:]
    private var instanceTasks: [Task<Void, Never>] = []
    /// The deliveries running, by a number of their own: each is forgotten when it ends (a
    /// daemon runs one for every relaunch by a session's events).
    private var deliveryTasks: [UInt64: Task<Void, Never>] = [:]
    private var nextDelivery: UInt64 = 0
    private var changeTimers: [RunClock.Timer] = []
    private var started = false
    private var isShutDown = false

    init(loop: EventLoop) {
        self.loop = loop
    }

    var clock: RunClock { parts.clock }
    var log: EventLog { parts.log }
    var supervisor: Supervisor { parts.supervisor }
    var scheduler: TimelineScheduler { parts.scheduler }
    var system: SystemState { parts.system }
    var configuration: HostConfiguration { parts.configuration }
    var chaos: ChaosHooks { parts.chaos }
    var journal: Journal { parts.journal }
    var location: LocationService { parts.location }
    var screen: Screen { parts.screen }
    var today: TodayScheduler { parts.today }

    func setUp(_ configuration: HostConfiguration) throws {
        parts = try Parts(configuration, loop: loop)
        _ = sg_raise_nofile_limit()
        // In-process extensions (a test's launcher) run under none of the sandbox's layers.
        let sandbox = configuration.launcher == nil ? parts.sandbox.summary : ["inProcess": "no process of their own: no sandbox"]
        log.emit(
            .runStart,
            [
                ("epoch", .double(clock.epoch)), ("clock", .string(configuration.clock == .virtual ? "virtual" : "real")),
                ("pid", .int(Int64(getpid()))),
                ("reloadsPerDay", .int(Int64(configuration.budgetOverrides.applied(to: Budgets()).reloadsPerDay))),
                ("debugReloads", .bool(configuration.debugReloads)),
                ("visibility", .string(configuration.visibility.description)),
                ("extensionClock", .string(parts.clockPage == nil ? "real" : "virtual (LD_PRELOAD \(ClockShim.fileName))")),
                ("sandbox", .object(sandbox.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
                ("deadlineThread", .string(supervisor.killer?.scheduling ?? "none (budget kills wait for the loop's timers)"))
            ])
        if !parts.sandbox.cgroups.reclaimed.isEmpty {
            log.emit(
                .cgroupReclaimed,
                [
                    ("groups", .array(parts.sandbox.cgroups.reclaimed.map { .string($0) })),
                    ("detail", "groups of hosts that died without removing them: their processes killed, the groups removed")
                ])
        }
        // Cycles through `self`, broken in shutdown().
        supervisor.hooks.helloReceived = { ext, hello in self.helloReceived(ext, hello) }
        supervisor.hooks.reloadRequested = { ext, kind in
            // The events one request causes for each of its widgets are charged to the process that asked.
            let process = ext.process
            self.scheduler.requestReload(from: ext, kind: kind) { name, fields in
                process.map { self.supervisor.admitsEvent(name, fields, for: $0, of: ext) } ?? true
            }
        }
        supervisor.hooks.extensionMessage = { ext, process, message in self.route(message, from: process, of: ext) }
        supervisor.hooks.diagnosticReceived = { ext, process, report in self.today.diagnostic(report, from: process, of: ext) }
        supervisor.hooks.processExited = { ext, record in self.parts.network.processEnded(record.pid, ext: ext) }
        let chaos = parts.chaos
        supervisor.hooks.stepReached = { step, ext, process in chaos.reached(step, ext, process) }
        chaos.killExtension = { [unowned supervisor] ext, process, detail in supervisor.kill(process, of: ext, .chaos, detail: detail) }
        let network = parts.network
        network.transfers.core = self
        network.inline.core = self
        network.delivery.spawn = { key, bundle in
            let number = self.nextDelivery
            self.nextDelivery += 1
            self.deliveryTasks[number] = Task(executorPreference: self.loop) { await self.runDelivery(key, bundle: bundle, number: number) }
        }
        try network.transfers.recover()
    }

    /// Installs the app at `path`: validates the bundle, makes its extensions' containers.
    func install(_ path: String) throws -> AppBundle {
        let original = try BundleLoader.load(path) // errors name the user's files
        try checkIdentifiersAreFree(original)
        let stored = try BundleStore.place(
            path, identifier: original.bundleIdentifier,
            in: parts.configuration.dataDirectory + "/Bundles")
        let app = try BundleLoader.load(stored)
        var registered: [ManagedExtension] = []
        for bundle in app.extensions {
            registered.append(try supervisor.register(bundle, app: app))
        }
        try prepareAppGroups(of: app)
        apps.append(app)
        installedFrom[app.bundleIdentifier] = original.path
        log.emit(
            .installed,
            [
                ("app", .string(app.bundleIdentifier)), ("path", .string(app.path)),
                (
                    "extensions",
                    .array(
                        app.extensions.map { ext in
                            .object([
                                ("bundle", .string(ext.bundleIdentifier)), ("point", .string(ext.point.rawValue)),
                                ("executable", .string(ext.executableName))
                            ])
                        })
                )
            ])
        for ext in registered { parts.network.installed(ext) }
        return app
    }

    /// Refuses an app that claims the identifier of an installed app or of an installed app's
    /// extension: it would take over that one's stored code and container.
    private func checkIdentifiersAreFree(_ app: AppBundle) throws(BundleError) {
        if let installed = apps.first(where: { $0.bundleIdentifier == app.bundleIdentifier }) {
            let other = installedFrom[installed.bundleIdentifier] ?? installed.path
            throw BundleError(
                file: app.path, key: "CFBundleIdentifier",
                message:
                    "is \(app.bundleIdentifier.debugDescription), the identifier of the app already installed from \(other); "
                    + "every app needs an identifier of its own")
        }
        for ext in app.extensions {
            if let owner = apps.first(where: { $0.extensions.contains { $0.bundleIdentifier == ext.bundleIdentifier } }) {
                let other = installedFrom[owner.bundleIdentifier] ?? owner.path
                throw BundleError(
                    file: ext.path, key: "CFBundleIdentifier",
                    message:
                        "is \(ext.bundleIdentifier.debugDescription), the identifier of an extension of the app already installed from \(other); "
                        + "every extension needs an identifier of its own")
            }
        }
    }

    /// Messages of the extension for the host's other parts.
    private func route(_ message: Message, from process: ExtensionProcess, of ext: ManagedExtension) {
        if parts.network.handle(message, from: process, of: ext) { return }
        if case .locationRequest(let mode) = message { return location.handle(mode, from: process, of: ext) }
        if case .currentConfigurationsRequest(let id) = message {
            process.channel.send(.currentConfigurations(id, currentConfigurations(app: ext.app.bundleIdentifier)))
            return
        }
        process.channel.send(
            .error(
                ErrorReport(
                    requestID: message.requestID, code: .unsupportedRequest,
                    message: "\(message.type) is not supported by this host")))
    }

    private func runDelivery(_ key: SessionRegistry.Key, bundle: String, number: UInt64) async {
        await parts.network.delivery.run(key, bundle: bundle)
        deliveryTasks[number] = nil
    }

    /// Deliveries running now.
    var runningDeliveries: Int { deliveryTasks.count }

    // MARK: callbacks of work running off the loop

    func transferProgress(_ id: Int64, received: Int64, expected: Int64) {
        parts.network.transfers.progress(id, received: received, expected: expected)
    }

    func transferResponded(_ id: Int64, _ response: HTTPResponsePayload) {
        parts.network.transfers.responded(id, response)
    }

    func transferAttemptEnded(_ id: Int64, result: HTTPAttempt.Result) {
        parts.network.transfers.attemptEnded(id, result: result)
    }

    func inlineMessage(pid: Int32, _ message: Message) {
        guard let (ext, process) = supervisor.running(pid: pid) else { return }
        // Backpressure: a process that does not read what its own requests bring is killed
        // before the host holds more than the channel's limit for it.
        if !process.channel.send(message) {
            supervisor.kill(
                process, of: ext, .resource,
                detail:
                    "did not read its IPC channel: \(process.channel.pendingOutput) bytes of its inline requests' data unread, over the \(process.channel.maximumOutbound >> 20) MiB limit"
            )
        }
    }

    func inlineRequestEnded(pid: Int32, taskIdentifier: Int, result: HTTPAttempt.Result, downloadPath: String?, bundle: String) {
        let ext = supervisor.extensions[bundle]
        parts.network.inline.ended(
            pid: pid, taskIdentifier: taskIdentifier, result: result, downloadPath: downloadPath,
            process: ext?.process, ext: ext)
    }

    /// Starts the system: the screen follows its visibility schedule, the location state and its
    /// timed changes take effect, each widget extension is launched to learn its kinds and one
    /// instance of each kind begins its life (placeholder, snapshot, timeline, reloads), and each
    /// Today extension's widget is added to the Today view (performUpdate).
    func start() async {
        guard !started else { return }
        started = true
        screen.start()
        location.start()
        let origin = clock.now
        for change in parts.configuration.changes {
            changeTimers.append(clock.schedule(at: origin + change.at.nanoseconds) { self.apply(change, cause: "scenario") })
        }
        guard parts.configuration.schedulesWidgets else { return }
        let sorted = supervisor.extensions.values.sorted(by: { $0.identifier < $1.identifier })
        for ext in sorted where ext.bundle.role == .today {
            _ = today.add(ext)
            let id = ext.identifier
            instanceTasks.append(Task(executorPreference: loop) { await self.runTodayWidget(id) })
        }
        for ext in sorted where ext.bundle.role == .widgetKit {
            if case .failure = await supervisor.ensureRunning(ext) {
                let id = ext.identifier
                instanceTasks.append(Task(executorPreference: loop) { await self.launchUntilReady(id) })
            }
        }
    }

    /// Launches widget extension `id`, whose first launch failed before it said which widgets it
    /// has, again after each failure's backoff, until it does or fails permanently — as the
    /// system keeps trying a widget extension that crashes at launch, not giving up after one.
    private func launchUntilReady(_ id: String) async {
        while !isShutDown, let ext = supervisor.extensions[id] {
            // ensureRunning waits for the backoff a failure scheduled before it launches again.
            switch await supervisor.ensureRunning(ext) {
            case .success, .failure(.failedPermanently), .failure(.shuttingDown): return
            case .failure: continue
            }
        }
    }

    /// Applies a change of location or visibility now.
    func apply(_ change: ScenarioChange, cause: String) {
        guard !isShutDown else { return }
        var fields: [(String, JSONValue)] = [("cause", .string(cause))]
        if let a = change.authorization { fields.append(("authorization", .string(a.rawValue))) }
        if let w = change.widgetApproval { fields.append(("widgetLocation", .string(w.rawValue))) }
        if let v = change.visibility { fields.append(("visibility", .string(v.description))) }
        if let p = change.position { fields.append(("position", .string(p.description))) }
        if let note = change.note { fields.append(("note", .string(note))) }
        log.emit(.scenarioChange, fields)
        location.change(authorization: change.authorization, widgetApproval: change.widgetApproval, position: change.position, cause: cause)
        if let visibility = change.visibility {
            screen.change(to: visibility)
            system.visibility = visibility.widgetVisibility
        }
    }

    private func helloReceived(_ ext: ManagedExtension, _ hello: Hello) {
        location.extensionReady(ext)
        guard started, parts.configuration.schedulesWidgets, !isShutDown else { return }
        let added = scheduler.addInstances(for: ext, hello: hello)
        location.widgetsAdded(ext, kinds: added.map(\.kind))
        for instance in added {
            // By the object, not its id: `bundle/kind/family` of kind "a/b" in family "c" is that
            // of kind "a" in family "b/c" — two widgets, one name.
            let object = ObjectIdentifier(instance)
            instanceTasks.append(Task(executorPreference: loop) { await self.runInstance(object) })
        }
    }

    /// Runs the Today widget of extension `id` until the Today scheduler stops.
    private func runTodayWidget(_ id: String) async {
        guard let widget = today.widgets.first(where: { $0.identifier == id }) else { return }
        await today.run(widget)
    }

    /// Runs the widget instance `object` until the scheduler stops (on a task that prefers the loop).
    private func runInstance(_ object: ObjectIdentifier) async {
        guard let instance = scheduler.instances.first(where: { ObjectIdentifier($0) == object }) else { return }
        await scheduler.run(instance)
    }

    /// Waits until `duration` has passed on the run clock (virtual time may jump).
    func run(for duration: Duration) async {
        _ = await advance(by: duration, until: nil)
    }

    /// Where `advance(by:until:)` starts looking: the sequence number of the first event it has
    /// not yet passed over.
    private var advanceCursor: Int {
        get { parts.advanceCursor }
        set { parts.advanceCursor = newValue }
    }

    /// Lets run time pass for `duration` — on the virtual clock by jumping from event to event —
    /// or until an event satisfies `predicate` (then the clock stops jumping at once). Returns that event.
    /// Events recorded since the previous advance returned (those caused by calls made in
    /// between) count too: the first of them that satisfies `predicate` is returned at once.
    func advance(by duration: Duration, until predicate: (@Sendable (HostEvent) -> Bool)?) async -> HostEvent? {
        if let predicate {
            let recent = log.events(since: advanceCursor)
            if let index = recent.firstIndex(where: predicate) {
                advanceCursor = log.sequenceNumber(at: index) + 1
                return recent[index]
            }
        }
        // No further than the clock reaches: 100 years of run time (``RunClock/farFuture``).
        let target = max(clock.now, min(clock.now &+ min(duration.nanoseconds, RunClock.farFuture), RunClock.farFuture))
        let event = await clock.advance(to: target, log: log, until: predicate)
        advanceCursor = log.emittedCount
        return event
    }

    /// Runs one activation now (for tests and the library API).
    func activate(_ bundleIdentifier: String, _ kind: ActivationKind, context: ActivationContext?) async -> ActivationOutcome? {
        guard let ext = supervisor.extensions[bundleIdentifier] else { return nil }
        return await supervisor.activate(ext, kind, context: context)
    }

    func subscribe(replay: Bool) -> AsyncStream<HostEvent> {
        log.subscribe(replay: replay)
    }

    func history() -> [HostEvent] { log.history }

    func liveProcesses() -> [String: Int32] {
        var result: [String: Int32] = [:]
        for (id, ext) in supervisor.extensions { if let pid = ext.pid { result[id] = pid } }
        return result
    }

    /// Kills the extension named by the first event that matches `predicate` (its `bundle`), at
    /// the moment that event is recorded.
    func armKill(reason: KillReason, where predicate: @escaping @Sendable (HostEvent) -> Bool) {
        var armed = true
        log.observers.append { [unowned self] event in
            guard armed, predicate(event), let bundle = event.bundle, let ext = self.supervisor.extensions[bundle] else { return }
            armed = false
            self.supervisor.kill(ext, reason, detail: "armed kill at \(event.name)")
        }
    }

    /// Events left in the journal (not yet acknowledged).
    func unacknowledgedEvents() -> Int {
        (try? parts.journal.eventCount()) ?? -1
    }

    func kill(_ bundleIdentifier: String, reason: KillReason) {
        guard let ext = supervisor.extensions[bundleIdentifier] else { return }
        supervisor.kill(ext, reason, detail: "requested")
    }

    /// Stops scheduling, kills every extension (`hostShutdown`), reaps them, closes the log.
    func shutdown() async -> RunSummary {
        guard !isShutDown else { return RunSummary(events: log.history) }
        isShutDown = true
        scheduler.stop()
        parts.network.delivery.shutdown()
        for timer in changeTimers { clock.cancel(timer) }
        changeTimers.removeAll()
        today.stop()
        location.stop()
        screen.stop()
        let tasks = instanceTasks + deliveryTasks.values
        for task in tasks { task.cancel() }
        await supervisor.shutdown()
        await parts.network.shutdown()
        let running = instanceTasks + deliveryTasks.values
        for task in running { task.cancel() }
        for task in running { await task.value }
        for violation in ReloadAudit.budgetViolations(in: log.history) {
            log.emit(
                .invariantViolated,
                [
                    ("invariant", "reloadBudget"), ("bundle", .string(violation.bundle)),
                    ("kind", .string(violation.kind)), ("family", .string(violation.family)),
                    ("detail", .string(violation.description))
                ])
        }
        let summary = RunSummary(events: log.history)
        log.emit(.runEnd, summary.fields)
        parts.sandbox.close()
        parts.clockPage?.close()
        log.close()
        supervisor.hooks = Supervisor.Hooks()
        parts.network.delivery.spawn = { _, _ in }
        parts.chaos.killExtension = { _, _, _ in }
        instanceTasks.removeAll()
        deliveryTasks.removeAll()
        return summary
    }
}

/// The host could not start; the description says why and what to do.
public struct HostSetupError: Error, CustomStringConvertible {
    public let description: String
}

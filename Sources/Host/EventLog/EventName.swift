/// The name of every event the host and the stress command write to an event log.
///
/// Event names are a contract: tools read event logs by these names (metrics, the invariant
/// checker, the report, `sandglass explain`, users' own scripts), so a name is never renamed
/// or reused for something else. New events and new fields may be added. Every line carries
/// `t` (milliseconds since the run started, on the run's clock) and `event` (this name), then
/// `bundle`, `pid` and `activation` where the event concerns an extension, then its own fields.
///
/// The reference, with each event's fields: <doc:EventLog>.
public enum EventName: String, CaseIterable, Sendable, Codable {
    // MARK: The run

    /// The first line: `epoch` (the run clock's origin, Unix ms), `clock` (`real` or `virtual`),
    /// `pid` (the host's), `reloadsPerDay`, `sandbox` (each layer and what it enforces here:
    /// `seccomp`, `landlock`, `cgroup`, `memory`, `rlimits`, `namespaces`).
    case runStart = "run.start"
    /// The last line: the run's summary (counts of activations, kills by reason, reloads…).
    case runEnd = "run.end"
    /// An app's extension was installed: `app`, `bundle`, `point`, `path`, `extensions`.
    case installed
    /// A widget instance was added: `bundle`, `principalClass` (Today), `reloadsPerDay`.
    case widgetAdded = "widget.added"
    /// An extension's limits asked more than the operator's ceiling and were lowered: `key`,
    /// `asked`, `granted`.
    case limitsCapped = "limits.capped"
    /// The host found an error it could not pin on an extension: `error`.
    case hostError = "host.error"
    /// The host saw something wrong that it survived (a process that would not die, …).
    case hostWarning = "host.warning"

    // MARK: Processes

    /// An extension process was started: `launch` (why), `ms`, `cgroupJoinMs`, `childSetupMs`
    /// (clone → execve as the child timed it).
    case spawned
    /// An extension could not be started: `error`.
    case spawnFailed = "spawn.failed"
    /// The SDK's first frame: `version` (protocol), `kinds`, `families`, `ms` (spawn → hello).
    case hello
    /// The host killed an extension: `reason` (``KillReason``), `detail`, `killedAtNs` and for a
    /// budget kill `deadlineNs` (CLOCK_MONOTONIC).
    case killed
    /// An extension process ended and was reaped: `status` or `signal`, `cpuMs`, `peakRSSKiB`,
    /// `reapedAtNs`.
    case exited
    /// A process was stopped (SIGSTOP, by chaos or a scenario).
    case suspended
    /// A stopped process was continued (SIGCONT).
    case resumed
    /// The seccomp filter denied a system call: `syscall`.
    case sandboxDenied = "sandbox.denied"
    /// A process connected to the control socket of the `serve` daemon as one of its extensions
    /// (its child), and was refused; told within its budget of denied calls, as `sandbox.denied`
    /// is: `detail`. A sandboxed extension has no socket to connect with: this is the second wall.
    case controlRefused = "control.refused"
    /// A frame broke the protocol; the extension is killed with reason `protocolViolation`: `error`.
    case protocolViolation = "protocol.violation"
    /// An extension sent more messages than its budget allows; the excess was dropped or
    /// coalesced: `kind`, `dropped`.
    case messagesThrottled = "messages.throttled"
    /// An error the SDK reported for the extension: `code`, `message`.
    case extensionError = "extension.error"
    /// A line the extension printed or logged: `stream` (stdout, stderr, sdk, oslog), `level`,
    /// `message`, and for `Logger`/`os_log` `subsystem` and `category`.
    case log
    /// A container was made safe again (ownership, modes) before a spawn: `detail`.
    case containerRepaired = "container.repaired"
    /// A container went over its quota; the extension is killed with reason `resource`.
    case containerOverQuota = "container.overQuota"
    /// Cgroups left by hosts that died were emptied and removed: `groups`.
    case cgroupReclaimed = "cgroup.reclaimed"
    /// The memory limit was changed during the run (chaos or a scenario): `pid`, `limitMiB`.
    case memoryLimit = "memory.limit"

    /// An app group's shared directory was made ready for the extensions that declare it:
    /// `app`, `group`, `path`, `gid`, `extensions`, `seededFrom`.
    case appGroupPrepared = "appGroup.prepared"
    /// An app group's directory was made safe again (ownership, modes): `app`, `group`, `detail`.
    case appGroupRepaired = "appGroup.repaired"

    // MARK: Activations and timelines

    /// An activation began: `kind` (placeholder, snapshot, timeline, backgroundEvents, …),
    /// `budgetMs`.
    case activationStart = "activation.start"
    /// An activation ended: `kind`, `outcome` (ok, failed, killed), `ms`; for a placeholder or a
    /// snapshot the `entry` with its `view`, for a timeline `renderMs` (its views' rendering).
    case activationEnd = "activation.end"
    /// A timeline arrived: `kind`, `entries` as the extension encoded them, `texts`, `views` (each
    /// entry's view tree, rendered in the extension), `renderMs`, `policy`, `nextReload`,
    /// `systemChosen`, `clamped`.
    case timeline
    /// A widget instance's configuration (its intent's parameters) was set: `kind`,
    /// `configuration`.
    case widgetConfigured = "widget.configured"
    /// A reload was asked for and charged, or free: `origin`, `reason`, `used`, `limit`.
    case reloadRequested = "reload.requested"
    /// A reload was refused by the daily budget or the spacing: `until`, `untilDate`, `used`,
    /// `limit`.
    case reloadDenied = "reload.denied"
    /// A reload merged into one already pending: `into`, `origin`, `reason`.
    case reloadCoalesced = "reload.coalesced"
    /// A reload's activation did not produce a timeline.
    case reloadFailed = "reload.failed"
    /// An extension failed repeatedly and waits before its next launch: `failures`, `delayMs`.
    case backoffScheduled = "backoff.scheduled"
    /// The crash-loop backoff was cleared: `failures`, `wasFailedPermanently`, `detail`.
    case backoffCleared = "backoff.cleared"
    /// An extension failed too often and is no longer launched until cleared.
    case extensionFailedPermanently = "extension.failedPermanently"
    /// The containing app's state changed: `app`, `activity`, `active`.
    case appState = "app.state"
    /// A widget's visibility changed: `widget`, `visibility`.
    case visibilityChanged = "visibility.changed"
    /// A system event happened (locale, time zone, significant time change…): `change`.
    case systemChanged = "system.changed"
    /// A scenario file's step took effect.
    case scenarioChange = "scenario.change"

    // MARK: Today extensions

    /// `widgetPerformUpdate(completionHandler:)` was asked for: `reason`, `visible`.
    case updateRequested = "update.requested"
    /// A Today update completed: `result`, `verdict`, `detail`, `mainThreadBlockedMs`.
    case updateResult = "update.result"
    /// The completion handler was misused (called twice, never, off the main thread): `detail`.
    case updateMisuse = "update.misuse"
    /// The extension's main thread was blocked: `state`, `ms`.
    case mainThreadBlocked = "mainThread.blocked"

    // MARK: Location

    /// Widgets became visible on the screen.
    case widgetsVisible = "widgets.visible"
    /// Widgets left the screen.
    case widgetsHidden = "widgets.hidden"
    /// The location authorization of an app: its status and `cause`.
    case locationAuthorization = "location.authorization"
    /// The permission prompt was answered: `answer`, `kinds`.
    case locationPrompt = "location.prompt"
    /// A location reached an extension: `latitude`, `longitude`, `mode`.
    case locationDelivered = "location.delivered"
    /// A location could not be had: `why`, `error`, `detail`, `mode`.
    case locationUnavailable = "location.unavailable"
    /// The simulated device moved: `from`, `to`, `cause`.
    case locationMoved = "location.moved"
    /// A significant location change woke widgets: `from`, `to`, `meters`, `widgets`.
    case locationSignificantChange = "location.significantChange"

    // MARK: Network requests and background sessions

    /// An extension created a task: `taskId`, `taskKind`, `url`; `headersNotSent`, the framing
    /// and connection headers it gave (lowercased), which the host sets itself.
    case taskCreated = "task.created"
    /// The host refused a task (scheme, method, header): `detail`.
    case taskRefused = "task.refused"
    /// A task started: `taskId`.
    case taskStarted = "task.started"
    /// A task ended with a response: `taskId`, `status`.
    case taskFinished = "task.finished"
    /// A task failed: `taskId`, `code`, `error`.
    case taskFailed = "task.failed"
    /// A task was cancelled: `taskId`, `url`.
    case taskCancelled = "task.cancelled"
    /// A task found in the journal at host start was resumed: `bytesOnDisk`.
    case taskRecovered = "task.recovered"
    /// A download's attempt began: `attempt`, `resumeFrom`.
    case downloadStarted = "download.started"
    /// A download's progress: `received`, `expected`.
    case downloadProgress = "download.progress"
    /// A download will be retried: `attempt`, `delayMs`, `code`, `error`, `bytesOnDisk`.
    case downloadRetry = "download.retry"
    /// A download completed: `status`, `bytes`, `attempts`.
    case downloadFinished = "download.finished"
    /// A download gave up: `attempts`, `code`, `error`.
    case downloadFailed = "download.failed"
    /// An extension re-created a background session: `session`, `tasks` still open,
    /// `endedTasks` whose events wait; `offered` when the host attached it to a process that
    /// accepted its events before the process asked (the events follow at once).
    case sessionAttached = "session.attached"
    /// A session was invalidated (another process holds its identifier): `holder`,
    /// `holderBundle`, `cancelTasks`.
    case sessionInvalidated = "session.invalidated"
    /// A URL-session event reached the extension: `session`, `taskId`, `eventId`, `attempt`,
    /// `callback`.
    case eventDelivered = "event.delivered"
    /// The delegate ran for an event: `delegateStartedAtNs` (CLOCK_MONOTONIC).
    case eventHandled = "event.handled"
    /// Events wait for the extension to be launched: `session`, `events`.
    case eventsWaiting = "events.waiting"
    /// The extension is about to acknowledge events: `identifier`, `eventIds`.
    case eventsAcknowledging = "events.acknowledging"
    /// The extension called the background events' completion: `identifier`, `acknowledged`.
    case eventsFinished = "events.finished"
    /// A completion arrived for no delivery in flight: `session`.
    case eventsFinishedUnexpected = "events.finished.unexpected"
    /// The extension declined background events: `session`, `events`.
    case eventsDeclined = "events.declined"
    /// Events not acknowledged will be delivered again: `session`, `outcome`, `delayMs`.
    case eventsRedelivery = "events.redelivery"
    /// The fixture server completed a response (tests and stress runs): `uri`, `count`.
    case serverCompleted = "server.completed"

    // MARK: Stress runs and checks

    /// An invariant did not hold: `kind`, `detail`, `family`.
    case invariantViolated = "invariant.violated"
    /// A stress run began: `seed`, `faults`, `shard`, `fixtureURL`.
    case stressStart = "stress.start"
    /// A stress run ended: `ranIterations`.
    case stressEnd = "stress.end"
    /// A stress iteration began: `iteration`, `action` (the fault the seed chose).
    case stressIteration = "stress.iteration"
    /// A stress iteration waited too long for what it needed (the run goes on): `detail`.
    case stressStall = "stress.stall"
    /// A stress run's host began: `hostPid`, `first`, `iterations`, `ending`.
    case hostStarted = "host.started"
    /// The stress run killed its host: `hostPid`, `step`, `detail`.
    case hostKilled = "host.killed"
    /// A stress run's host ended (drained, or killed).
    case hostEnded = "host.ended"
    /// What a stress worker left behind at its end: descriptors, children.
    case hygiene
    /// What the stress run found left behind on the machine: `children`, `zombies`.
    case stressHygiene = "stress.hygiene"
}

extension HostEvent {
    /// The event's name as an ``EventName``, or nil for a name this version does not know (a log
    /// written by a newer version, or not by Sandglass).
    public var kind: EventName? { EventName(rawValue: name) }

    /// An event named `name` with `fields`.
    public init(t: Double, name: EventName, fields: [(String, JSONValue)]) {
        self.init(t: t, name: name.rawValue, fields: fields)
    }
}

import SandglassIPC

/// The life of one extension process, as a value the supervisor drives:
///
/// ```
/// launching ─hello─▶ welcoming ─handled─▶ ready ◀─▶ busy
///     │                  │                  │ idle timer
///     │                  │                  ▼
///     │                  │                quiet ─quiet, or 100 looks─▶ kill(idle)
///     └──────────────────┴──── kill ───▶ exiting ─┐
///       any state but reaped ──────── reaped ─────┴─▶ reaped
/// ```
///
/// It reads no clock and does no I/O (after swift-nio's typed state machines): each event
/// brings the time it needs, and ``handle(_:)`` answers with the actions the supervisor performs,
/// in order — timers to arm or cancel, holds of the run clock to take or release, launch waiters
/// to resume, activations to finish, a kill to make, a failure to record. Timer and hold actions
/// come before the ones that call out (finish, resume, kill), which may bring the next event.
///
/// Generic over what the supervisor keeps for a launch waiter and for an activation
/// (continuations and their records in the host, plain values in tests).
struct ProcessLifecycle<LaunchWaiter, Activation> {
    enum State {
        /// Spawned, no hello yet: the run clock is held, and the launch budget's timer runs.
        case launching(Launching)
        /// Said hello; the supervisor is welcoming it (the welcome, the `hello` event, the
        /// hooks). The launch's hold and waiters are released when that is done — a kill may
        /// come first (chaos at the `hello` step).
        case welcoming(waiters: [LaunchWaiter])
        /// Welcomed, no activation: the idle timer runs (nil while none is armed).
        case ready(idleTimer: UInt64?)
        /// Serving activations.
        case busy([RequestID: Activation])
        /// Its idle budget ended: waiting, with the run clock held, until it is quiet; then it is
        /// killed (`idle`).
        case quiet(Quiet)
        /// Killed: waiting to be reaped.
        case exiting(Exiting)
        /// Reaped: how an activation of it ends now.
        case reaped(killReason: KillReason?, outcome: ActivationOutcome)
    }

    struct Launching {
        /// The launch budget's end (CLOCK_MONOTONIC), while its timer is armed.
        var launchTimer: UInt64?
        var waiters: [LaunchWaiter] = []
    }

    struct Quiet {
        /// The look under way: 0 when the idle timer fired, one more at each quiet check.
        var checks = 0
        /// The next look (CLOCK_MONOTONIC), while its timer is armed.
        var checkTimer: UInt64?
        /// Whether the wait holds the run clock (from the first look that found it running).
        var holdsClock = false
    }

    struct Exiting {
        var reason: KillReason
        var activations: [RequestID: Activation] = [:]
        var waiters: [LaunchWaiter] = []
        /// The launch's hold of the run clock, not released yet (killed before it was welcomed).
        var holdsLaunch: Bool
    }

    /// What ``handle(_:)`` is told.
    enum Event {
        /// The launch budget's timer fired.
        case launchDeadlinePassed
        /// A valid `hello` arrived at `at` (CLOCK_MONOTONIC).
        case helloReceived(at: UInt64)
        /// The supervisor welcomed it and told the rest of the host; `now` is run time.
        case helloHandled(now: UInt64)
        /// Someone waits for the launch to end (``Supervisor/ensureRunning(_:)``).
        case launchWaited(LaunchWaiter)
        /// An activation is about to start (before its `activation.start`).
        case activationStarting
        /// The activation's request is about to be sent; it is pending until it ends.
        case activationStarted(RequestID, Activation)
        /// The pending activation ended (its reply, its error, its completion); `now` is run time.
        case activationEnded(RequestID, ActivationOutcome, now: UInt64)
        /// The idle budget's timer fired.
        case idleTimerFired
        /// The quiet wait's timer fired: time to look again.
        case quietCheckDue
        /// What a look found (``Action/measureQuiet``); `now` is CLOCK_MONOTONIC.
        case quietMeasured(isQuiet: Bool, now: UInt64)
        /// The supervisor kills it (the first reason is the one kept).
        case killRequested(KillReason)
        /// It was reaped; `record.killReason` is the kernel's kill (OOM, RLIMIT_CPU, …) when the
        /// host did not kill it.
        case reaped(ExitRecord)
    }

    /// A hold of the run clock: the virtual clock does not jump while one is held.
    enum ClockHold: Hashable {
        /// From the spawn to the end of the welcome (or the reaping).
        case launch
        /// While an idle process is waited on to be quiet.
        case quietWait
        /// From the kill to the reaping.
        case kill
    }

    /// A kill the lifecycle asks for; the supervisor makes it (``Event/killRequested(_:)``).
    enum Kill: Equatable {
        /// Idle for its idle budget after its last activation, and quiet.
        case idle
        /// No hello by the launch budget's end, `deadline` (CLOCK_MONOTONIC).
        case launchBudget(deadline: UInt64)
    }

    /// How a launch ended, for those who waited.
    enum LaunchResult: Equatable {
        case ready
        case died(ActivationOutcome)
    }

    /// What the supervisor does.
    enum Action {
        /// The launch budget (CLOCK_MONOTONIC, the loop's timer).
        case armLaunchTimer(at: UInt64)
        case cancelLaunchTimer
        /// The idle budget (run time).
        case armIdleTimer(at: UInt64)
        case cancelIdleTimer
        /// The quiet wait's next look (CLOCK_MONOTONIC, the loop's timer).
        case armQuietCheck(at: UInt64)
        case cancelQuietCheck
        /// Look whether it is quiet, and tell (``Event/quietMeasured(isQuiet:now:)``).
        case measureQuiet
        case holdClock(ClockHold)
        case releaseClock(ClockHold)
        case resumeLaunchWaiters([LaunchWaiter], LaunchResult)
        case finishActivations([Activation], ActivationOutcome)
        case kill(Kill)
        /// Its process ended by an idle kill before the activation started: launch it again.
        case relaunch
        /// A death the extension is to blame for (``RelaunchBackoff``).
        case recordFailure(cause: String)
    }

    /// How often an idle process that is still running code is looked at again (CLOCK_MONOTONIC
    /// nanoseconds), and how many looks it gets before it is killed anyway (20 ms in all).
    static var quietCheckInterval: UInt64 { 200_000 }
    static var quietChecks: Int { 100 }

    private(set) var state: State
    /// When `hello` arrived (CLOCK_MONOTONIC).
    private(set) var helloAt: UInt64?
    /// The idle budget after each last activation.
    let idleBudget: Duration

    /// A process just spawned, and what is done at once: the run clock held until its hello and
    /// the launch budget's timer armed for `launchDeadline` (CLOCK_MONOTONIC).
    static func spawned(launchDeadline: UInt64, idleBudget: Duration) -> (Self, [Action]) {
        let lifecycle = Self(state: .launching(Launching(launchTimer: launchDeadline)), idleBudget: idleBudget)
        return (lifecycle, [.holdClock(.launch), .armLaunchTimer(at: launchDeadline)])
    }

    private init(state: State, idleBudget: Duration) {
        self.state = state
        self.idleBudget = idleBudget
    }

    mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .launchDeadlinePassed: launchDeadlinePassed()
        case .helloReceived(let at): helloReceived(at: at)
        case .helloHandled(let now): helloHandled(now: now)
        case .launchWaited(let waiter): launchWaited(waiter)
        case .activationStarting: activationStarting()
        case .activationStarted(let id, let activation): activationStarted(id, activation)
        case .activationEnded(let id, let outcome, let now): activationEnded(id, outcome, now: now)
        case .idleTimerFired: idleTimerFired()
        case .quietCheckDue: quietCheckDue()
        case .quietMeasured(let isQuiet, let now): quietMeasured(isQuiet: isQuiet, now: now)
        case .killRequested(let reason): killRequested(reason)
        case .reaped(let record): reaped(record)
        }
    }

    // MARK: launch

    private mutating func launchDeadlinePassed() -> [Action] {
        guard case .launching(var launching) = state, let deadline = launching.launchTimer else { return [] }
        launching.launchTimer = nil
        state = .launching(launching)
        return [.kill(.launchBudget(deadline: deadline))]
    }

    /// A hello once killed (or reaped) is ignored: it is too late.
    private mutating func helloReceived(at: UInt64) -> [Action] {
        guard case .launching(let launching) = state else { return [] }
        helloAt = at
        state = .welcoming(waiters: launching.waiters)
        return launching.launchTimer == nil ? [] : [.cancelLaunchTimer]
    }

    private mutating func helloHandled(now: UInt64) -> [Action] {
        switch state {
        case .welcoming(let waiters):
            let due = now + idleBudget.nanoseconds
            state = .ready(idleTimer: due)
            return [.releaseClock(.launch), .armIdleTimer(at: due)] + Self.resume(waiters, .ready)
        case .exiting(var exiting) where exiting.holdsLaunch && helloAt != nil:
            // Killed while it was welcomed: those who waited for it see it ready (and dying);
            // an activation started on it ends killed, unless the kill was for idle (``activationStarting()``).
            let waiters = exiting.waiters
            exiting.waiters = []
            exiting.holdsLaunch = false
            state = .exiting(exiting)
            return [.releaseClock(.launch)] + Self.resume(waiters, .ready)
        default:
            return []
        }
    }

    private mutating func launchWaited(_ waiter: LaunchWaiter) -> [Action] {
        switch state {
        case .launching(var launching):
            launching.waiters.append(waiter)
            state = .launching(launching)
            return []
        case .exiting(var exiting):
            exiting.waiters.append(waiter)
            state = .exiting(exiting)
            return []
        case .welcoming, .ready, .busy, .quiet:
            return [.resumeLaunchWaiters([waiter], .ready)]
        case .reaped(_, let outcome):
            return [.resumeLaunchWaiters([waiter], .died(outcome))]
        }
    }

    // MARK: activations

    /// The idle timer and a quiet wait stop; an activation of a process that an idle kill ended
    /// (its idle timer fired before the launch's waiters ran, on a starved loop) launches again.
    /// On a process killed for another reason it goes ahead, and ends with that kill.
    private mutating func activationStarting() -> [Action] {
        switch state {
        case .ready(let idleTimer):
            state = .ready(idleTimer: nil)
            return idleTimer == nil ? [] : [.cancelIdleTimer]
        case .quiet(let quiet):
            state = .ready(idleTimer: nil)
            return Self.endWait(quiet)
        case .exiting(let exiting) where exiting.reason == .idle:
            return [.relaunch]
        case .reaped(.idle?, _):
            return [.relaunch]
        case .launching, .welcoming, .busy, .exiting, .reaped:
            return []
        }
    }

    private mutating func activationStarted(_ id: RequestID, _ activation: Activation) -> [Action] {
        switch state {
        case .ready(let idleTimer):
            state = .busy([id: activation])
            return idleTimer == nil ? [] : [.cancelIdleTimer]
        case .quiet(let quiet):
            state = .busy([id: activation])
            return Self.endWait(quiet)
        case .busy(var activations):
            activations[id] = activation
            state = .busy(activations)
            return []
        case .exiting(var exiting):
            exiting.activations[id] = activation
            state = .exiting(exiting)
            return []
        case .reaped(_, let outcome):
            return [.finishActivations([activation], outcome)]
        case .launching, .welcoming:
            // Not done: activations start on processes that were welcomed.
            return [.finishActivations([activation], .failed("the extension has not said hello yet"))]
        }
    }

    private mutating func activationEnded(_ id: RequestID, _ outcome: ActivationOutcome, now: UInt64) -> [Action] {
        switch state {
        case .busy(var activations):
            guard let activation = activations.removeValue(forKey: id) else { return [] }
            guard activations.isEmpty else {
                state = .busy(activations)
                return [.finishActivations([activation], outcome)]
            }
            let due = now + idleBudget.nanoseconds
            state = .ready(idleTimer: due)
            return [.armIdleTimer(at: due), .finishActivations([activation], outcome)]
        case .exiting(var exiting):
            guard let activation = exiting.activations.removeValue(forKey: id) else { return [] }
            state = .exiting(exiting)
            return [.finishActivations([activation], outcome)]
        case .launching, .welcoming, .ready, .quiet, .reaped:
            return []
        }
    }

    /// The pending activations, by request.
    var activations: [RequestID: Activation] {
        switch state {
        case .busy(let activations): activations
        case .exiting(let exiting): exiting.activations
        case .launching, .welcoming, .ready, .quiet, .reaped: [:]
        }
    }

    // MARK: idle

    private mutating func idleTimerFired() -> [Action] {
        guard case .ready(.some) = state else { return [] }
        state = .quiet(Quiet())
        return [.measureQuiet]
    }

    private mutating func quietCheckDue() -> [Action] {
        guard case .quiet(var quiet) = state, quiet.checkTimer != nil else { return [] }
        quiet.checkTimer = nil
        quiet.checks += 1
        guard quiet.checks < Self.quietChecks else {
            state = .ready(idleTimer: nil)
            return Self.endWait(quiet) + [.kill(.idle)]
        }
        state = .quiet(quiet)
        return [.measureQuiet]
    }

    private mutating func quietMeasured(isQuiet: Bool, now: UInt64) -> [Action] {
        guard case .quiet(var quiet) = state, quiet.checkTimer == nil else { return [] }
        if isQuiet {
            state = .ready(idleTimer: nil)
            return Self.endWait(quiet) + [.kill(.idle)]
        }
        var actions: [Action] = []
        if !quiet.holdsClock {
            quiet.holdsClock = true
            actions.append(.holdClock(.quietWait))
        }
        let due = now + Self.quietCheckInterval
        quiet.checkTimer = due
        state = .quiet(quiet)
        return actions + [.armQuietCheck(at: due)]
    }

    private static func endWait(_ quiet: Quiet) -> [Action] {
        (quiet.checkTimer == nil ? [] : [.cancelQuietCheck]) + (quiet.holdsClock ? [.releaseClock(.quietWait)] : [])
    }

    // MARK: kill and reaping

    private mutating func killRequested(_ reason: KillReason) -> [Action] {
        var actions: [Action] = []
        switch state {
        case .launching(let launching):
            if launching.launchTimer != nil { actions.append(.cancelLaunchTimer) }
            state = .exiting(Exiting(reason: reason, waiters: launching.waiters, holdsLaunch: true))
        case .welcoming(let waiters):
            state = .exiting(Exiting(reason: reason, waiters: waiters, holdsLaunch: true))
        case .ready(let idleTimer):
            if idleTimer != nil { actions.append(.cancelIdleTimer) }
            state = .exiting(Exiting(reason: reason, holdsLaunch: false))
        case .busy(let activations):
            state = .exiting(Exiting(reason: reason, activations: activations, holdsLaunch: false))
        case .quiet(let quiet):
            actions += Self.endWait(quiet)
            state = .exiting(Exiting(reason: reason, holdsLaunch: false))
        case .exiting, .reaped:
            return []
        }
        return actions + [.holdClock(.kill)]
    }

    private mutating func reaped(_ record: ExitRecord) -> [Action] {
        var actions: [Action] = []
        var activations: [RequestID: Activation] = [:]
        var waiters: [LaunchWaiter] = []
        var holdsLaunch = false
        var killedByHost = false
        let reason: KillReason?
        switch state {
        case .launching(let launching):
            if launching.launchTimer != nil { actions.append(.cancelLaunchTimer) }
            waiters = launching.waiters
            holdsLaunch = true
            reason = record.killReason
        case .welcoming(let welcoming):
            waiters = welcoming
            holdsLaunch = true
            reason = record.killReason
        case .ready(let idleTimer):
            if idleTimer != nil { actions.append(.cancelIdleTimer) }
            reason = record.killReason
        case .busy(let pending):
            activations = pending
            reason = record.killReason
        case .quiet(let quiet):
            actions += Self.endWait(quiet)
            reason = record.killReason
        case .exiting(let exiting):
            activations = exiting.activations
            waiters = exiting.waiters
            holdsLaunch = exiting.holdsLaunch
            killedByHost = true
            reason = exiting.reason
        case .reaped:
            return []
        }
        let outcome: ActivationOutcome = reason.map { .killed($0) } ?? .failed("the extension ended (\(record.summary)) before answering")
        state = .reaped(killReason: reason, outcome: outcome)
        if !activations.isEmpty {
            actions.append(.finishActivations(activations.keys.sorted().map { activations[$0]! }, outcome))
        }
        actions += Self.resume(waiters, .died(outcome))
        if let cause = Self.failureCause(reason, record, saidHello: helloAt != nil, hadActivations: !activations.isEmpty) {
            actions.append(.recordFailure(cause: cause))
        }
        if holdsLaunch { actions.append(.releaseClock(.launch)) }
        if killedByHost { actions.append(.releaseClock(.kill)) }
        return actions
    }

    /// Why the process ended, when it is a failure the extension is to blame for (nil otherwise).
    static func failureCause(_ reason: KillReason?, _ record: ExitRecord, saidHello: Bool, hadActivations: Bool) -> String? {
        if let reason {
            switch reason {
            case .timeBudget, .memory, .cpu, .protocolViolation, .resource, .sandboxViolation:
                return saidHello ? reason.rawValue : "\(reason.rawValue) during launch"
            case .idle, .chaos, .hostShutdown, .sessionConflict:
                return nil
            }
        }
        if let signal = record.signal { return "crashed (\(signalName(signal)))" }
        if let status = record.status, status != 0 { return "exited with status \(status)" }
        if !saidHello { return "exited before hello" }
        if hadActivations { return "exited during an activation" }
        return nil
    }

    private static func resume(_ waiters: [LaunchWaiter], _ result: LaunchResult) -> [Action] {
        waiters.isEmpty ? [] : [.resumeLaunchWaiters(waiters, result)]
    }

    // MARK: what the supervisor reads

    /// Why the host (or the kernel) killed it, once it did.
    var killReason: KillReason? {
        switch state {
        case .exiting(let exiting): exiting.reason
        case .reaped(let reason, _): reason
        case .launching, .welcoming, .ready, .busy, .quiet: nil
        }
    }

    /// How an activation of it ends, once it was reaped.
    var exitOutcome: ActivationOutcome? {
        if case .reaped(_, let outcome) = state { return outcome }
        return nil
    }

    /// Spawned, no hello yet.
    var isLaunching: Bool {
        if case .launching = state { return true }
        return false
    }

    /// Said hello and neither killed nor reaped: it can serve activations.
    var isLive: Bool {
        switch state {
        case .welcoming, .ready, .busy, .quiet: true
        case .launching, .exiting, .reaped: false
        }
    }

    /// Killed or reaped.
    var isEnding: Bool {
        switch state {
        case .exiting, .reaped: true
        case .launching, .welcoming, .ready, .busy, .quiet: false
        }
    }
}

extension ProcessLifecycle.Action: Equatable where LaunchWaiter: Equatable, Activation: Equatable {}

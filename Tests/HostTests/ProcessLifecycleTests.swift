import Glibc
import SandglassIPC
import Testing

@testable import SandglassHost

/// Launch waiters are numbers, activations are names: no process, socket or clock.
private typealias Lifecycle = ProcessLifecycle<Int, String>

private let ms: UInt64 = 1_000_000
private let idle = Duration.seconds(5)
private let launchDeadline = 1000 * ms

private func request(_ n: UInt64) -> RequestID { RequestID(n) }

/// Exit records: an exit with `status`, or a death by `signal`.
private func exited(_ status: Int32) -> ExitRecord { ExitRecord(pid: 7, status: status, cpuMilliseconds: 1, peakRSSKiB: 1) }
private func signalled(_ signal: Int32) -> ExitRecord { ExitRecord(pid: 7, signal: signal, cpuMilliseconds: 1, peakRSSKiB: 1) }

/// A process that said hello at 10 ms and was welcomed at run time 20 ms (idle timer armed).
private func welcomed() -> Lifecycle {
    var lifecycle = Lifecycle.spawned(launchDeadline: launchDeadline, idleBudget: idle).0
    _ = lifecycle.handle(.helloReceived(at: 10 * ms))
    _ = lifecycle.handle(.helloHandled(now: 20 * ms))
    return lifecycle
}

/// A welcomed process serving the activation `a` (request 1).
private func busy() -> Lifecycle {
    var lifecycle = welcomed()
    _ = lifecycle.handle(.activationStarting)
    _ = lifecycle.handle(.activationStarted(request(1), "a"))
    return lifecycle
}

@Suite("Process lifecycle")
struct ProcessLifecycleTests {
    // MARK: launch

    @Test("a spawn holds the run clock and arms the launch budget")
    func spawn() {
        let (lifecycle, actions) = Lifecycle.spawned(launchDeadline: launchDeadline, idleBudget: idle)
        #expect(actions == [.holdClock(.launch), .armLaunchTimer(at: launchDeadline)])
        #expect(lifecycle.isLaunching)
        #expect(lifecycle.killReason == nil && lifecycle.helloAt == nil && lifecycle.exitOutcome == nil)
    }

    @Test("launch waiters wait for the hello, then resume ready; the idle timer starts at the welcome")
    func hello() {
        var lifecycle = Lifecycle.spawned(launchDeadline: launchDeadline, idleBudget: idle).0
        #expect(lifecycle.handle(.launchWaited(1)).isEmpty)
        #expect(lifecycle.handle(.launchWaited(2)).isEmpty)
        #expect(lifecycle.handle(.helloReceived(at: 10 * ms)) == [.cancelLaunchTimer])
        #expect(lifecycle.helloAt == 10 * ms)
        #expect(lifecycle.isLive && !lifecycle.isLaunching)
        #expect(
            lifecycle.handle(.helloHandled(now: 20 * ms))
                == [.releaseClock(.launch), .armIdleTimer(at: 20 * ms + idle.nanoseconds), .resumeLaunchWaiters([1, 2], .ready)])
        guard case .ready(let due) = lifecycle.state, due == 20 * ms + idle.nanoseconds else {
            Issue.record("not ready with its idle timer: \(lifecycle.state)")
            return
        }
        #expect(lifecycle.handle(.launchWaited(3)) == [.resumeLaunchWaiters([3], .ready)], "ready: at once")
    }

    @Test("no hello within the launch budget: a timeBudget kill, a failure during launch, waiters told it died")
    func launchBudget() {
        var lifecycle = Lifecycle.spawned(launchDeadline: launchDeadline, idleBudget: idle).0
        _ = lifecycle.handle(.launchWaited(1))
        #expect(lifecycle.handle(.launchDeadlinePassed) == [.kill(.launchBudget(deadline: launchDeadline))])
        #expect(lifecycle.handle(.launchDeadlinePassed).isEmpty, "the timer fires once")
        #expect(lifecycle.handle(.killRequested(.timeBudget)) == [.holdClock(.kill)], "its timer already fired")
        #expect(lifecycle.killReason == .timeBudget && lifecycle.isEnding)
        #expect(lifecycle.handle(.launchWaited(2)).isEmpty, "killed, not reaped: waits for the reaping")
        #expect(
            lifecycle.handle(.reaped(signalled(SIGKILL)))
                == [
                    .resumeLaunchWaiters([1, 2], .died(.killed(.timeBudget))), .recordFailure(cause: "timeBudget during launch"),
                    .releaseClock(.launch), .releaseClock(.kill)
                ])
        #expect(lifecycle.exitOutcome == .killed(.timeBudget))
        #expect(lifecycle.handle(.launchWaited(3)) == [.resumeLaunchWaiters([3], .died(.killed(.timeBudget)))])
    }

    @Test("a kill during launch (before its timer fired) stops the launch budget's timer")
    func killDuringLaunch() {
        var lifecycle = Lifecycle.spawned(launchDeadline: launchDeadline, idleBudget: idle).0
        #expect(lifecycle.handle(.killRequested(.protocolViolation)) == [.cancelLaunchTimer, .holdClock(.kill)])
        #expect(lifecycle.handle(.launchDeadlinePassed).isEmpty)
    }

    @Test("a hello after a kill was asked for is ignored: too late")
    func helloAfterKill() {
        var lifecycle = Lifecycle.spawned(launchDeadline: launchDeadline, idleBudget: idle).0
        _ = lifecycle.handle(.launchWaited(1))
        _ = lifecycle.handle(.killRequested(.chaos))
        #expect(lifecycle.handle(.helloReceived(at: 10 * ms)).isEmpty)
        #expect(lifecycle.handle(.helloHandled(now: 20 * ms)).isEmpty)
        #expect(lifecycle.helloAt == nil)
        #expect(lifecycle.killReason == .chaos)
        #expect(
            lifecycle.handle(.reaped(signalled(SIGKILL)))
                == [.resumeLaunchWaiters([1], .died(.killed(.chaos))), .releaseClock(.launch), .releaseClock(.kill)],
            "chaos is no failure")
    }

    @Test("a process that exits before its hello: a failure, its waiters told how it ended")
    func exitBeforeHello() {
        var lifecycle = Lifecycle.spawned(launchDeadline: launchDeadline, idleBudget: idle).0
        _ = lifecycle.handle(.launchWaited(1))
        #expect(
            lifecycle.handle(.reaped(exited(0)))
                == [
                    .cancelLaunchTimer, .resumeLaunchWaiters([1], .died(.failed("the extension ended (exit status 0) before answering"))),
                    .recordFailure(cause: "exited before hello"), .releaseClock(.launch)
                ])
    }

    // MARK: the subtle cases

    @Test("chaos kill at the hello: the waiters resume ready, the activation goes ahead and ends killed (chaos)")
    func chaosKillAtHello() {
        var lifecycle = Lifecycle.spawned(launchDeadline: launchDeadline, idleBudget: idle).0
        _ = lifecycle.handle(.launchWaited(1))
        _ = lifecycle.handle(.helloReceived(at: 10 * ms))
        // The hello step's hook kills it while it is welcomed.
        #expect(lifecycle.handle(.killRequested(.chaos)) == [.holdClock(.kill)])
        #expect(
            lifecycle.handle(.helloHandled(now: 20 * ms)) == [.releaseClock(.launch), .resumeLaunchWaiters([1], .ready)],
            "no idle timer for a killed process")
        #expect(lifecycle.handle(.activationStarting).isEmpty, "no relaunch: the kill was not for idle")
        #expect(lifecycle.handle(.activationStarted(request(1), "a")).isEmpty)
        #expect(lifecycle.activations == [request(1): "a"])
        #expect(lifecycle.handle(.reaped(signalled(SIGKILL))) == [.finishActivations(["a"], .killed(.chaos)), .releaseClock(.kill)])
    }

    @Test("an idle timer that fires before the launch's waiters ran: the activation launches again")
    func idleBeforeWaitersRan() {
        var lifecycle = Lifecycle.spawned(launchDeadline: launchDeadline, idleBudget: idle).0
        _ = lifecycle.handle(.launchWaited(1))
        _ = lifecycle.handle(.helloReceived(at: 10 * ms))
        #expect(lifecycle.handle(.helloHandled(now: 20 * ms)).contains(.resumeLaunchWaiters([1], .ready)))
        // A starved loop: the idle budget passes before waiter 1 runs.
        #expect(lifecycle.handle(.idleTimerFired) == [.measureQuiet])
        #expect(lifecycle.handle(.quietMeasured(isQuiet: true, now: 30 * ms)) == [.kill(.idle)])
        _ = lifecycle.handle(.killRequested(.idle))
        #expect(lifecycle.handle(.activationStarting) == [.relaunch], "killed for idle, not reaped yet")
        _ = lifecycle.handle(.reaped(signalled(SIGKILL)))
        #expect(lifecycle.handle(.activationStarting) == [.relaunch], "and once reaped")
    }

    @Test("an activation of a process that died on its own after its welcome goes ahead and ends as it did")
    func activationAfterCrash() {
        var lifecycle = welcomed()
        _ = lifecycle.handle(.reaped(signalled(SIGSEGV)))
        #expect(lifecycle.handle(.activationStarting).isEmpty)
        #expect(
            lifecycle.handle(.activationStarted(request(1), "a"))
                == [.finishActivations(["a"], .failed("the extension ended (SIGSEGV) before answering"))])
    }

    // MARK: activations

    @Test("activations: the idle timer stops at the first, starts again after the last")
    func activations() {
        var lifecycle = welcomed()
        #expect(lifecycle.handle(.activationStarting) == [.cancelIdleTimer])
        #expect(lifecycle.handle(.activationStarted(request(1), "a")).isEmpty)
        #expect(lifecycle.handle(.activationStarting).isEmpty, "busy: nothing to stop")
        #expect(lifecycle.handle(.activationStarted(request(2), "b")).isEmpty)
        #expect(lifecycle.activations == [request(1): "a", request(2): "b"])
        #expect(lifecycle.handle(.activationEnded(request(9), .declined, now: 30 * ms)).isEmpty, "not pending")
        #expect(lifecycle.handle(.activationEnded(request(2), .declined, now: 30 * ms)) == [.finishActivations(["b"], .declined)])
        #expect(
            lifecycle.handle(.activationEnded(request(1), .eventsFinished(count: 1), now: 40 * ms))
                == [.armIdleTimer(at: 40 * ms + idle.nanoseconds), .finishActivations(["a"], .eventsFinished(count: 1))])
        #expect(lifecycle.activations.isEmpty)
        #expect(lifecycle.handle(.activationEnded(request(1), .declined, now: 50 * ms)).isEmpty, "ended already")
    }

    @Test("an activation that starts while another ended in the meantime stops the idle timer armed since")
    func activationRace() {
        var lifecycle = busy()
        _ = lifecycle.handle(.activationStarting) // the second activation, before an executor hop
        _ = lifecycle.handle(.activationEnded(request(1), .declined, now: 30 * ms))
        #expect(lifecycle.handle(.activationStarted(request(2), "b")) == [.cancelIdleTimer])
    }

    @Test("killed while busy: a reply read at the kill still ends its activation; the others end killed at the reaping")
    func killWhileBusy() {
        var lifecycle = busy()
        _ = lifecycle.handle(.activationStarted(request(3), "c"))
        _ = lifecycle.handle(.activationStarted(request(2), "b"))
        #expect(lifecycle.handle(.killRequested(.chaos)) == [.holdClock(.kill)])
        #expect(
            lifecycle.handle(.activationEnded(request(3), .declined, now: 30 * ms)) == [.finishActivations(["c"], .declined)],
            "no idle timer for a killed process")
        #expect(
            lifecycle.handle(.reaped(signalled(SIGKILL))) == [.finishActivations(["a", "b"], .killed(.chaos)), .releaseClock(.kill)],
            "in the order of their requests")
    }

    @Test("an activation cannot start on a process that was not welcomed: it ends at once")
    func activationBeforeHello() {
        var lifecycle = Lifecycle.spawned(launchDeadline: launchDeadline, idleBudget: idle).0
        #expect(
            lifecycle.handle(.activationStarted(request(1), "a"))
                == [.finishActivations(["a"], .failed("the extension has not said hello yet"))])
        #expect(lifecycle.isLaunching)
    }

    // MARK: idle and quiet

    @Test("idle and quiet at once: killed (idle) without holding the clock")
    func idleQuiet() {
        var lifecycle = welcomed()
        #expect(lifecycle.handle(.idleTimerFired) == [.measureQuiet])
        #expect(lifecycle.handle(.quietMeasured(isQuiet: true, now: 30 * ms)) == [.kill(.idle)])
        #expect(lifecycle.handle(.killRequested(.idle)) == [.holdClock(.kill)], "no timer left to stop")
        #expect(lifecycle.handle(.reaped(signalled(SIGKILL))) == [.releaseClock(.kill)], "an idle kill is no failure")
        #expect(lifecycle.exitOutcome == .killed(.idle))
    }

    @Test("idle but running code: the clock is held and it is looked at every 200 µs until it is quiet")
    func quietWait() {
        var lifecycle = welcomed()
        _ = lifecycle.handle(.idleTimerFired)
        #expect(
            lifecycle.handle(.quietMeasured(isQuiet: false, now: 30 * ms))
                == [.holdClock(.quietWait), .armQuietCheck(at: 30 * ms + 200_000)])
        #expect(lifecycle.handle(.quietMeasured(isQuiet: true, now: 30 * ms)).isEmpty, "no look was asked for")
        #expect(lifecycle.handle(.quietCheckDue) == [.measureQuiet])
        #expect(
            lifecycle.handle(.quietMeasured(isQuiet: false, now: 31 * ms)) == [.armQuietCheck(at: 31 * ms + 200_000)],
            "held once")
        #expect(lifecycle.handle(.quietCheckDue) == [.measureQuiet])
        #expect(lifecycle.handle(.quietMeasured(isQuiet: true, now: 32 * ms)) == [.releaseClock(.quietWait), .kill(.idle)])
    }

    @Test("still running after 100 looks (20 ms): killed anyway, without another look")
    func quietGivesUp() {
        var lifecycle = welcomed()
        _ = lifecycle.handle(.idleTimerFired)
        _ = lifecycle.handle(.quietMeasured(isQuiet: false, now: 0))
        for look in 1..<Lifecycle.quietChecks {
            #expect(lifecycle.handle(.quietCheckDue) == [.measureQuiet])
            #expect(lifecycle.handle(.quietMeasured(isQuiet: false, now: UInt64(look))) == [.armQuietCheck(at: UInt64(look) + 200_000)])
        }
        #expect(lifecycle.handle(.quietCheckDue) == [.releaseClock(.quietWait), .kill(.idle)])
    }

    @Test("an activation during the quiet wait ends it; so does a kill, or the reaping")
    func quietInterrupted() {
        var started = welcomed()
        _ = started.handle(.idleTimerFired)
        _ = started.handle(.quietMeasured(isQuiet: false, now: 0))
        var killed = started
        var reaped = started
        var registered = started
        #expect(started.handle(.activationStarting) == [.cancelQuietCheck, .releaseClock(.quietWait)])
        #expect(started.handle(.quietCheckDue).isEmpty, "a stale look")
        #expect(killed.handle(.killRequested(.chaos)) == [.cancelQuietCheck, .releaseClock(.quietWait), .holdClock(.kill)])
        #expect(reaped.handle(.reaped(exited(0))) == [.cancelQuietCheck, .releaseClock(.quietWait)])
        #expect(registered.handle(.activationStarted(request(1), "a")) == [.cancelQuietCheck, .releaseClock(.quietWait)])
    }

    @Test("a quiet wait that has not held the clock yet lets go of nothing")
    func quietFirstLook() {
        var lifecycle = welcomed()
        _ = lifecycle.handle(.idleTimerFired)
        #expect(lifecycle.handle(.activationStarting).isEmpty)
        #expect(lifecycle.handle(.quietMeasured(isQuiet: true, now: 0)).isEmpty, "the look came too late")
    }

    @Test("stale timers do nothing")
    func staleTimers() {
        var lifecycle = busy()
        #expect(lifecycle.handle(.idleTimerFired).isEmpty)
        #expect(lifecycle.handle(.quietCheckDue).isEmpty)
        #expect(lifecycle.handle(.launchDeadlinePassed).isEmpty)
        var ready = welcomed()
        _ = ready.handle(.activationStarting)
        #expect(ready.handle(.idleTimerFired).isEmpty, "its idle timer was stopped")
    }

    // MARK: kill and reaping

    @Test("the first kill's reason is kept; later kills, and kills after the reaping, do nothing")
    func firstKillWins() {
        var lifecycle = welcomed()
        #expect(lifecycle.handle(.killRequested(.memory)) == [.cancelIdleTimer, .holdClock(.kill)])
        #expect(lifecycle.handle(.killRequested(.timeBudget)).isEmpty)
        #expect(lifecycle.killReason == .memory)
        #expect(lifecycle.handle(.reaped(signalled(SIGKILL))) == [.recordFailure(cause: "memory"), .releaseClock(.kill)])
        #expect(lifecycle.handle(.killRequested(.chaos)).isEmpty)
        #expect(lifecycle.handle(.reaped(signalled(SIGKILL))).isEmpty, "reaped once")
        #expect(lifecycle.killReason == .memory)
    }

    @Test("the kernel's kill (OOM, RLIMIT_CPU…) is the process's kill reason; no hold of the host's to release")
    func kernelKill() {
        var lifecycle = busy()
        var record = signalled(SIGKILL)
        record.killReason = .memory
        #expect(
            lifecycle.handle(.reaped(record))
                == [.finishActivations(["a"], .killed(.memory)), .recordFailure(cause: "memory")])
        #expect(lifecycle.killReason == .memory)
        #expect(lifecycle.exitOutcome == .killed(.memory))
    }

    @Test("its own end: a crash, an exit status, an exit during an activation, a clean exit while idle")
    func ownEnd() {
        var crashed = welcomed()
        #expect(crashed.handle(.reaped(signalled(SIGSEGV))) == [.cancelIdleTimer, .recordFailure(cause: "crashed (SIGSEGV)")])
        var failed = welcomed()
        #expect(failed.handle(.reaped(exited(3))) == [.cancelIdleTimer, .recordFailure(cause: "exited with status 3")])
        var during = busy()
        #expect(
            during.handle(.reaped(exited(0)))
                == [
                    .finishActivations(["a"], .failed("the extension ended (exit status 0) before answering")),
                    .recordFailure(cause: "exited during an activation")
                ])
        var clean = welcomed()
        #expect(clean.handle(.reaped(exited(0))) == [.cancelIdleTimer])
        #expect(clean.killReason == nil)
        #expect(clean.isEnding)
    }

    @Test("failure causes: kills the extension is to blame for, before and after its hello; the host's own kills are none")
    func failureCauses() {
        let record = signalled(SIGKILL)
        for reason in [KillReason.timeBudget, .memory, .cpu, .protocolViolation, .resource, .sandboxViolation] {
            #expect(Lifecycle.failureCause(reason, record, saidHello: true, hadActivations: false) == reason.rawValue)
            #expect(Lifecycle.failureCause(reason, record, saidHello: false, hadActivations: false) == "\(reason.rawValue) during launch")
        }
        for reason in [KillReason.idle, .chaos, .hostShutdown, .sessionConflict] {
            #expect(Lifecycle.failureCause(reason, record, saidHello: true, hadActivations: true) == nil)
        }
        #expect(Set(KillReason.allCases).count == 10, "a new kill reason: decide whether it is a failure")
    }
}

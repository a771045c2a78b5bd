import CSandbox
import Foundation
import SandglassIPC

/// The run's clock, real or virtual, and the timers scheduled on it.
///
/// Real: run time is CLOCK_MONOTONIC since the start. Virtual (discrete events): run time flows
/// with real time while something is busy (an activation, a launch, a kill being reaped), and
/// when nothing is busy and the loop has no work, it jumps to the next scheduled timer — but
/// never past the *horizon*, the latest run time someone is waiting for (``allowJumps(until:)``,
/// set by `run(for:)` and `advance(by:)`). Between two such waits virtual time flows at the real
/// pace, so a test can look at the host, change its state and advance again. Budgets of
/// activations are never on this clock; reload dates, idle termination, the reload budget's
/// window, retries and backoff are. Every jump is reported to ``onJump`` (the shared page that
/// the extensions' `Date()` reads). Confined to the host's loop thread.
final class RunClock {
    /// A timer on run time, for ``cancel(_:)``.
    typealias Timer = TimerHandle<RunClock>

    let mode: ClockMode
    /// The run's start, seconds since 1970 (`run.start`'s `epoch`).
    let epoch: Double
    private let loop: EventLoop
    private let monotonicStart: UInt64
    private var jumped: UInt64 = 0
    private var timers = TimerHeap<RunClock>()
    private var armed: (id: EventLoop.Timer, at: UInt64)?
    private var busyCount = 0
    private var networkCount = 0
    private var serverHolds = 0
    private var permanentHorizon: UInt64 = 0
    private var grants: [UInt64: UInt64] = [:]
    private var nextGrant: UInt64 = 0
    /// Called after each jump of the virtual clock (with the new ``realtimeOffset``).
    var onJump: ((Int64) -> Void)?

    init(mode: ClockMode, loop: EventLoop, epoch: Double? = nil) {
        self.mode = mode
        self.loop = loop
        self.monotonicStart = sg_monotonic_ns()
        self.epoch = epoch ?? Double(sg_realtime_ns()) / 1e9
        if mode == .virtual {
            loop.onIdle { [weak self] in self?.jumpIfIdle() ?? false }
        }
    }

    /// Stops a debug build when called off the host's loop thread (``EventLoop/assertInLoop(file:line:)``).
    func assertInLoop(file: StaticString = #file, line: UInt = #line) {
        loop.assertInLoop(file: file, line: line)
    }

    /// Nanoseconds since the run started.
    var now: UInt64 { sg_monotonic_ns() - monotonicStart + jumped }

    /// Milliseconds since the run started (the event log's `t`).
    var nowMilliseconds: Double { Double(now) / 1e6 }

    /// The date of run time `instant` (seconds since 1970).
    func date(at instant: UInt64) -> Double { epoch + Double(instant) / 1e9 }

    /// The current date on this clock, seconds since 1970.
    var currentDate: Double { date(at: now) }

    /// Run time of `date` (seconds since 1970): 0 for dates before the run (and NaN),
    /// ``farFuture`` for dates past it. Any double an extension sends is a date here — an
    /// entry's, a reload's, a task's earliest begin — and `Date.distantFuture` is past the 584
    /// years a count of nanoseconds holds.
    func instant(at date: Double) -> UInt64 {
        let seconds = date - epoch
        guard seconds > 0 else { return 0 }
        return seconds < Double(Self.farFuture) / 1e9 ? UInt64(seconds * 1e9) : Self.farFuture
    }

    /// The latest run time a date maps to: 100 years, room left for sums with it.
    static let farFuture: UInt64 = 100 * 365 * 86_400 * 1_000_000_000

    /// Total virtual time skipped so far (0 on the real clock).
    var skipped: UInt64 { jumped }

    /// The run clock's date minus CLOCK_MONOTONIC, in nanoseconds: what an extension adds to its
    /// monotonic clock to read this clock's date (the shared page's offset).
    var realtimeOffset: Int64 {
        Int64(epoch * 1e9) - Int64(monotonicStart) + Int64(jumped)
    }

    /// Lets the virtual clock jump up to run time `instant` for good (the horizon only grows).
    func allowJumps(until instant: UInt64) {
        assertInLoop()
        permanentHorizon = max(permanentHorizon, instant)
    }

    /// Lets the virtual clock jump up to run time `instant` until the grant is revoked; several
    /// grants may be live (the horizon is the furthest).
    func grantJumps(until instant: UInt64) -> UInt64 {
        assertInLoop()
        let token = nextGrant
        nextGrant += 1
        grants[token] = instant
        return token
    }

    /// Ends a grant of ``grantJumps(until:)``.
    func revokeJumps(_ token: UInt64) {
        assertInLoop()
        grants.removeValue(forKey: token)
    }

    /// The latest run time the virtual clock may jump to now.
    var horizon: UInt64 { max(permanentHorizon, grants.values.max() ?? 0) }

    /// Runs `body` at run time `instant` (at once, on the next loop turn, if it has passed).
    @discardableResult
    func schedule(at instant: UInt64, _ body: @escaping () -> Void) -> Timer {
        assertInLoop()
        let id = timers.insert(deadline: instant, body)
        rearm()
        return id
    }

    /// Runs `body` after `delay` of run time.
    @discardableResult
    func schedule(after delay: Duration, _ body: @escaping () -> Void) -> Timer {
        schedule(at: now + delay.nanoseconds, body)
    }

    func cancel(_ id: Timer) {
        assertInLoop()
        timers.cancel(id)
        rearm()
    }

    /// Real work in progress (an activation, a launch, a kill being reaped): the virtual clock
    /// does not jump until the hold is released.
    func holdBusy() -> Hold {
        assertInLoop()
        busyCount += 1
        return Hold { [self] in
            assertInLoop()
            busyCount -= 1
        }
    }

    /// The longest real time one request in flight holds the virtual clock: past it the clock
    /// goes on without the request, which goes on too — a server that trickles a body a byte at
    /// a time (never silent for its read timeout) cannot hold a virtual run to real time.
    var networkHoldLimit: Duration = .seconds(30)

    /// A network request in flight (a background download's attempt, from the moment it is
    /// asked for, its wait for its turn on the transport included): it holds the virtual clock
    /// like real work, unless a server holds it on this clock too (``holdForServer()``), for at
    /// most ``networkHoldLimit`` of real time.
    func holdNetwork() -> Hold {
        assertInLoop()
        networkCount += 1
        let expiry = HoldExpiry()
        let hold = Hold { [self] in
            assertInLoop()
            networkCount -= 1
            if let timer = expiry.timer { loop.cancel(timer) }
        }
        if mode == .virtual {
            expiry.timer = loop.schedule(at: sg_monotonic_ns() + networkHoldLimit.nanoseconds) { [weak hold] in
                expiry.timer = nil
                hold?.release()
            }
        }
        return hold
    }

    /// The timer that gives a network hold back once it has lasted ``networkHoldLimit``.
    private final class HoldExpiry {
        var timer: EventLoop.Timer?
    }

    /// A response that a server waits to send on this clock (the fixture server's `delay` and
    /// `interval` with `fixturePacing` of `SandglassTesting`): while every request in flight is
    /// so held, the network does not hold the virtual clock, and the wait is a jump.
    func holdForServer() -> Hold {
        assertInLoop()
        serverHolds += 1
        return Hold { [self] in
            assertInLoop()
            serverHolds -= 1
        }
    }

    /// Whether real work is in progress: an activation, a launch, a kill being reaped, or a
    /// request in flight that no server holds on this clock.
    var isBusy: Bool { busyCount > 0 || networkCount > serverHolds }

    private func fireDue() {
        armed = nil
        let t = now
        while let body = timers.popDue(now: t) { body() }
        rearm()
    }

    private func rearm() {
        guard let next = timers.earliestDeadline else {
            if let armed { loop.cancel(armed.id) }
            armed = nil
            return
        }
        if let armed, armed.at == next { return }
        if let armed { loop.cancel(armed.id) }
        // Run time → monotonic deadline; a jump changes the mapping, so the clock re-arms.
        let deadline = next >= jumped ? monotonicStart + (next - jumped) : 0
        armed = (loop.schedule(at: deadline) { [weak self] in self?.fireDue() }, next)
    }

    /// The loop's idle hook: with nothing busy, jump to the next timer (up to the horizon) and fire it.
    private func jumpIfIdle() -> Bool {
        guard !isBusy, let next = timers.earliestDeadline else { return false }
        let t = now
        if next > t {
            guard next <= horizon else { return false }
            jumped += next - t
            onJump?(realtimeOffset)
        }
        fireDue()
        return true
    }
}

extension Duration {
    /// The whole duration in nanoseconds (negative durations count as 0).
    package var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        // Past 584 years of nanoseconds: the most there are, not a trap.
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return .max }
        let (sum, carried) = whole.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        return carried ? .max : sum
    }

    /// The duration in milliseconds, as a Double.
    package var milliseconds: Double { Double(nanoseconds) / 1e6 }
}

import CSandbox
import Foundation
import SandglassIPC
import Testing

@testable import SandglassHost

/// Drives a run clock on its own event loop thread.
actor ClockDriver {
    nonisolated let loop: EventLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }
    private var clock: RunClock?

    init() throws {
        loop = try EventLoop(name: "clock-test")
    }

    /// Schedules named timers at run times (seconds); returns the names and run times (seconds)
    /// in the order they fired.
    func fire(_ timers: [(String, Double)], mode: ClockMode) async -> [(String, Double)] {
        let clock = RunClock(mode: mode, loop: loop)
        clock.allowJumps(until: .max)
        self.clock = clock
        let log = FiredLog()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            log.remaining = timers.count
            log.done = done
            for (name, seconds) in timers {
                clock.schedule(at: UInt64(seconds * 1e9)) {
                    log.fired.append((name, Double(clock.now) / 1e9))
                    log.remaining -= 1
                    if log.remaining == 0 { log.done?.resume() }
                }
            }
        }
        return log.fired
    }

    /// The run times of `offsets` (seconds from the clock's start; NaN and infinities as they are).
    func instants(atOffsets offsets: [Double]) -> [UInt64] {
        let clock = RunClock(mode: .virtual, loop: loop)
        let epoch = clock.date(at: 0)
        return offsets.map { clock.instant(at: epoch + $0) }
    }
}

private final class FiredLog {
    var fired: [(String, Double)] = []
    var remaining = 0
    var done: CheckedContinuation<Void, Never>?
}

@Suite("Run clock")
struct RunClockTests {
    @Test("any date an extension sends is a run time: NaN and the past are 0, distantFuture and infinity 100 years")
    func extremeDates() async throws {
        let driver = try ClockDriver()
        let farFuture = RunClock.farFuture
        let instants = await driver.instants(
            atOffsets: [.nan, -.infinity, -5, 2.5, 1e20, .infinity, Date.distantFuture.timeIntervalSince1970])
        #expect(instants == [0, 0, 0, 2_500_000_000, farFuture, farFuture, farFuture])
        #expect(farFuture == 3_153_600_000 * 1_000_000_000)
    }

    @Test("the virtual clock jumps to each timer in order and fires it at its run time")
    func virtualJumpsInOrder() async throws {
        let driver = try ClockDriver()
        let fired = await driver.fire([("run end", 7200), ("next match", 900), ("leaderboard", 1500), ("idle", 1)], mode: .virtual)
        #expect(fired.map(\.0) == ["idle", "next match", "leaderboard", "run end"])
        for ((_, at), expected) in zip(fired, [1.0, 900, 1500, 7200]) {
            #expect(at >= expected && at < expected + 0.5, "fired at \(at) s, due at \(expected) s")
        }
        driver.loop.shutdown()
    }

    @Test("the real clock fires timers at their real time")
    func realClock() async throws {
        let driver = try ClockDriver()
        let fired = await driver.fire([("b", 0.2), ("a", 0.1)], mode: .real)
        #expect(fired.map(\.0) == ["a", "b"])
        #expect(fired[0].1 >= 0.1 && fired[1].1 >= 0.2)
        driver.loop.shutdown()
    }
}

/// Drives a virtual clock with grants of jumps.
actor HorizonDriver {
    nonisolated let loop: EventLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    init() throws {
        loop = try EventLoop(name: "horizon-test")
    }

    /// Timers at 10 s and 100 s; the clock may jump to 50 s only. Returns the run time (s) the
    /// first timer fired at and whether the second had fired by the end of the grant.
    func run() async -> (first: Double, secondFired: Bool, endedAt: Double) {
        let clock = RunClock(mode: .virtual, loop: loop)
        let log = EventLog(clock: clock)
        let fired = FiredLog()
        clock.schedule(at: 10 * 1_000_000_000) { fired.fired.append(("a", Double(clock.now) / 1e9)) }
        clock.schedule(at: 100 * 1_000_000_000) { fired.fired.append(("b", Double(clock.now) / 1e9)) }
        _ = await clock.advance(to: 50 * 1_000_000_000, log: log, until: nil)
        return (fired.fired.first?.1 ?? -1, fired.fired.count > 1, Double(clock.now) / 1e9)
    }

    /// Advances up to an hour, stopping at the first `hello` (emitted by a timer at 20 s).
    func runUntilEvent() async -> (event: String?, at: Double, horizon: UInt64) {
        let clock = RunClock(mode: .virtual, loop: loop)
        let log = EventLog(clock: clock)
        clock.schedule(at: 20 * 1_000_000_000) { log.emit(.hello) }
        clock.schedule(at: 40 * 1_000_000_000) { log.emit(.installed) }
        let event = await clock.advance(to: 3600 * 1_000_000_000, log: log, until: { $0.kind == .hello })
        return (event?.name, Double(clock.now) / 1e9, clock.horizon)
    }
}

@Suite("Run clock horizon")
struct RunClockHorizonTests {
    @Test("the virtual clock jumps only as far as it is advanced")
    func horizon() async throws {
        let driver = try HorizonDriver()
        let result = await driver.run()
        // Run time also flows with real time (a loaded machine adds some): bounds, not equalities.
        // Run time also flows with real time (a loaded machine adds seconds): the bounds are the
        // neighbouring timers, not the real time the test took.
        #expect(result.first >= 10 && result.first < 50)
        #expect(!result.secondFired, "100 s is past the 50 s horizon")
        #expect(result.endedAt >= 50 && result.endedAt < 100)
        driver.loop.shutdown()
    }

    @Test("advancing until an event stops the clock at that event")
    func untilEvent() async throws {
        let driver = try HorizonDriver()
        let result = await driver.runUntilEvent()
        #expect(result.event == "hello")
        #expect(result.at >= 20 && result.at < 40, "stopped at the event, not at 40 s or the hour")
        #expect(result.horizon == 0, "the grant is revoked")
        driver.loop.shutdown()
    }
}

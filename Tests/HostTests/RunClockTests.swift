import CSandbox
import Foundation
@testable import SandglassHost
import SandglassIPC
import Testing

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
}

private final class FiredLog {
    var fired: [(String, Double)] = []
    var remaining = 0
    var done: CheckedContinuation<Void, Never>?
}

@Suite("Run clock")
struct RunClockTests {
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

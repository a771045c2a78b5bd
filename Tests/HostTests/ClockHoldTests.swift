import CSandbox
import SandglassIPC
import Testing

@testable import SandglassHost

/// Drives a virtual clock's holds on its own event loop thread.
actor HoldDriver {
    nonisolated let loop: EventLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    init() throws {
        loop = try EventLoop(name: "hold-test")
    }

    /// Whether the clock is busy after each step of taking and giving back holds.
    func busyness() -> [String: Bool] {
        let clock = RunClock(mode: .virtual, loop: loop)
        var seen: [String: Bool] = [:]
        let busy = clock.holdBusy()
        seen["held"] = clock.isBusy
        busy.release()
        seen["released"] = clock.isBusy
        do {
            let dropped = clock.holdBusy()
            seen["heldInScope"] = clock.isBusy && !dropped.isReleased
        }
        seen["dropped"] = clock.isBusy
        let first = clock.holdBusy(), second = clock.holdBusy()
        first.release()
        first.release()
        seen["releasedTwiceWithAnotherHeld"] = clock.isBusy
        second.release()
        let network = clock.holdNetwork()
        seen["network"] = clock.isBusy
        let server = clock.holdForServer()
        seen["networkHeldByServer"] = clock.isBusy
        server.release()
        seen["serverReleased"] = clock.isBusy
        network.release()
        seen["networkReleased"] = clock.isBusy
        return seen
    }

    /// A timer at 100 s of run time; the clock is held busy until 50 ms of real time have
    /// passed. Returns the run time (s) when the hold was released and when the timer fired.
    func jumpAfterRelease() async -> (released: Double, fired: Double) {
        let clock = RunClock(mode: .virtual, loop: loop)
        let log = EventLog(clock: clock)
        var fired = -1.0, released = -1.0
        clock.schedule(at: 100 * 1_000_000_000) { fired = Double(clock.now) / 1e9 }
        let busy = clock.holdBusy()
        loop.schedule(at: sg_monotonic_ns() + 50_000_000) {
            released = Double(clock.now) / 1e9
            busy.release()
        }
        _ = await clock.advance(to: 200 * 1_000_000_000, log: log, until: nil)
        return (released, fired)
    }
}

@Suite("Run clock holds")
struct ClockHoldTests {
    @Test("a hold is given back once: by release, or when it is dropped; a server's hold frees the network's")
    func balanced() async throws {
        let driver = try HoldDriver()
        let seen = await driver.busyness()
        #expect(
            seen == [
                "held": true, "released": false, "heldInScope": true, "dropped": false,
                "releasedTwiceWithAnotherHeld": true, "network": true, "networkHeldByServer": false,
                "serverReleased": true, "networkReleased": false
            ])
        driver.loop.shutdown()
    }

    @Test("the virtual clock does not jump while held, and jumps once the hold is released")
    func jumpsAfterRelease() async throws {
        let driver = try HoldDriver()
        let (released, fired) = await driver.jumpAfterRelease()
        #expect(released >= 0 && released < 1, "released at \(released) s of run time")
        #expect(fired >= 100 && fired < 100.5, "fired at \(fired) s of run time")
        driver.loop.shutdown()
    }
}

import Testing

@testable import SandglassHost

private let second: UInt64 = 1_000_000_000

@Suite("Crash-loop backoff")
struct CrashLoopTests {
    @Test("delays double from 1 s and stop at the 5-minute cap")
    func delays() {
        let policy = RelaunchBackoff()
        #expect((1...10).map { policy.delay(afterFailures: $0) } == [1, 2, 4, 8, 16, 32, 64, 128, 256, 300].map { Duration.seconds($0) })
        #expect(policy.delay(afterFailures: 60) == .seconds(300))
        #expect(policy.delay(afterFailures: 0) == .zero)
    }

    @Test("each failure schedules the next launch; an answer clears the count")
    func backoffAndSuccess() {
        let policy = RelaunchBackoff()
        var loop = CrashLoop()
        let first = loop.recordFailure(at: 10 * second, cause: "timeBudget", policy: policy)
        #expect(first == .backoff(delay: .seconds(1), until: 11 * second))
        #expect(loop.blockedUntil(now: 10 * second) == 11 * second)
        #expect(loop.blockedUntil(now: 11 * second) == nil)
        let second2 = loop.recordFailure(at: 20 * second, cause: "crashed (SIGSEGV)", policy: policy)
        #expect(second2 == .backoff(delay: .seconds(2), until: 22 * second))
        let cleared = loop.recordSuccess()
        #expect(cleared)
        let clearedAgain = loop.recordSuccess()
        #expect(!clearedAgain, "nothing left to clear")
        let third = loop.recordFailure(at: 30 * second, cause: "memory", policy: policy)
        #expect(third == .backoff(delay: .seconds(1), until: 31 * second), "the count started over")
    }

    @Test("N failures in a row within the window are a permanent failure; spread wider they are not")
    func permanentFailure() {
        let policy = RelaunchBackoff(permanentFailureCount: 3, permanentFailureWindow: .seconds(60))
        var fast = CrashLoop()
        _ = fast.recordFailure(at: 0, cause: "a", policy: policy)
        _ = fast.recordFailure(at: 10 * second, cause: "b", policy: policy)
        let tripped = fast.recordFailure(at: 20 * second, cause: "c", policy: policy)
        #expect(tripped == .failedPermanently)
        #expect(fast.isFailedPermanently)
        fast.clear()
        #expect(!fast.isFailedPermanently)
        #expect(fast.failures.isEmpty)

        var slow = CrashLoop()
        _ = slow.recordFailure(at: 0, cause: "a", policy: policy)
        _ = slow.recordFailure(at: 50 * second, cause: "b", policy: policy)
        let spread = slow.recordFailure(at: 100 * second, cause: "c", policy: policy)
        #expect(spread != .failedPermanently, "three failures over 100 s: not within the 60 s window")
        let close = slow.recordFailure(at: 110 * second, cause: "d", policy: policy)
        #expect(close == .failedPermanently, "the last three (50, 100, 110 s) are within 60 s")
    }
}

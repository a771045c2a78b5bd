/// Waits on the run clock that can be ended early: each resumes at its instant or when
/// ``end(where:)`` names it, whichever comes first. Once ``close()``d (the host shutting down),
/// every wait ends and a new one returns at once. `Tag` says what a wait is for (the extension
/// whose backoff it waits out). Confined to the host's loop thread.
final class ClockWaits<Tag> {
    private struct Wait {
        let tag: Tag
        let timer: RunClock.Timer
        let continuation: CheckedContinuation<Void, Never>
    }

    private let clock: RunClock
    private var waits: [UInt64: Wait] = [:]
    private var next: UInt64 = 0
    private(set) var isClosed = false

    init(clock: RunClock) {
        self.clock = clock
    }

    /// Suspends until run time `instant`, or until the wait is ended.
    func wait(until instant: UInt64, for tag: Tag) async {
        clock.assertInLoop()
        let key = next
        next += 1
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // The body may run after an executor hop, when the waits were closed meanwhile.
            guard !isClosed else { return continuation.resume() }
            let timer = clock.schedule(at: instant) { [unowned self] in
                self.waits.removeValue(forKey: key)?.continuation.resume()
            }
            waits[key] = Wait(tag: tag, timer: timer, continuation: continuation)
        }
    }

    /// Ends the waits whose tag `matches`, oldest first.
    func end(where matches: (Tag) -> Bool) {
        clock.assertInLoop()
        for (key, wait) in waits.sorted(by: { $0.key < $1.key }) where matches(wait.tag) {
            waits.removeValue(forKey: key)
            clock.cancel(wait.timer)
            wait.continuation.resume()
        }
    }

    /// Ends every wait, and every later one at once.
    func close() {
        clock.assertInLoop()
        isClosed = true
        end { _ in true }
    }
}

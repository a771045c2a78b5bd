/// Advancing the run clock on request (the host's `run(for:)` and `advance(by:)`).
extension RunClock {
    /// Lets run time pass until `deadline` — on the virtual clock by jumping from timer to timer
    /// — or until an event of `log` satisfies `predicate`, at which point the clock stops jumping
    /// at once (the predicate runs on the loop as the event is emitted). Returns that event.
    func advance(to deadline: UInt64, log: EventLog, until predicate: ((HostEvent) -> Bool)?) async -> HostEvent? {
        assertInLoop()
        let grant = grantJumps(until: deadline)
        return await withCheckedContinuation { (continuation: CheckedContinuation<HostEvent?, Never>) in
            let wait = AdvanceWait(continuation: continuation)
            wait.finish = { [unowned self, unowned wait, unowned log] event in
                guard let continuation = wait.continuation else { return }
                wait.continuation = nil
                if let timer = wait.timer { self.cancel(timer) }
                if let observer = wait.observer { log.removeObserver(observer) }
                self.revokeJumps(grant)
                continuation.resume(returning: event)
            }
            if let predicate {
                wait.observer = log.observe { event in if predicate(event) { wait.finish(event) } }
            }
            if wait.continuation != nil {
                wait.timer = schedule(at: deadline) { wait.finish(nil) }
            }
        }
    }
}

/// One advance in progress. Loop-confined.
private final class AdvanceWait {
    var continuation: CheckedContinuation<HostEvent?, Never>?
    var timer: RunClock.Timer?
    var observer: UInt64?
    var finish: (HostEvent?) -> Void = { _ in }

    init(continuation: CheckedContinuation<HostEvent?, Never>) {
        self.continuation = continuation
    }
}

import Dispatch
import Synchronization

/// A hold of the host's loop thread at a protocol step, for tests and measurements of what
/// does not wait for the loop: when the step is reached, the loop thread blocks there — as a
/// host busy with other work would be — until ``release()`` is called or the limit passes.
///
/// ```swift
/// let hold = await host.holdLoop(at: .requestWritten, of: "com.example.hanging.widget", limit: .seconds(60))
/// // … the loop is stuck: observe what happens meanwhile …
/// hold.release()
/// ```
@_spi(Measurements)
public final class LoopHold: Sendable {
    private let gate = DispatchSemaphore(value: 0)
    private let state = Mutex<(begun: Bool, ended: Bool)>((false, false))
    let limit: Duration

    init(limit: Duration) {
        self.limit = limit
    }

    /// True once the loop reached the step and blocked.
    public var hasBegun: Bool { state.withLock { $0.begun } }

    /// True once the loop went on (released, or the limit passed).
    public var hasEnded: Bool { state.withLock { $0.ended } }

    /// Lets the loop go on (before or during the hold).
    public func release() {
        gate.signal()
    }

    /// Blocks the calling thread (the loop) until released or the limit passes.
    func hold() {
        state.withLock { $0.begun = true }
        let nanoseconds = limit.components.seconds * 1_000_000_000 + limit.components.attoseconds / 1_000_000_000
        _ = gate.wait(timeout: .now() + .nanoseconds(Int(nanoseconds)))
        state.withLock { $0.ended = true }
    }
}

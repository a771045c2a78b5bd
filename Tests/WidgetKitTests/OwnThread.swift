import Dispatch
import Foundation
import Synchronization

/// Work started on a thread of its own, and its result once it is done.
///
/// A test that plays the host blocks its own thread while it waits for a frame. Work the frame
/// depends on must not wait for a thread of Swift's cooperative pool: there are two on a 2-core
/// machine, and the tests running beside this one may hold both.
final class OwnThread<Value: Sendable>: Sendable {
    private let result = Mutex<Value?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// Starts `work` at once on a new thread.
    init(_ work: @escaping @Sendable () -> Value) {
        Thread.detachNewThread { [self] in
            let value = work()
            result.withLock { $0 = value }
            done.signal()
        }
    }

    /// The work's result, waited for without holding a thread of the cooperative pool.
    var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread { [self] in
                    done.wait()
                    done.signal()
                    continuation.resume(returning: result.withLock { $0! })
                }
            }
        }
    }
}

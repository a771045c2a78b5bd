import Dispatch
import Foundation
import Synchronization
import Testing

// A test that plays the host blocks its own thread while it waits for a frame. Work the frame
// depends on must not wait for a thread of Swift's cooperative pool: there are two on a 2-core
// machine, and the tests running beside this one may hold both.

/// Work started on a thread of its own, and its result once it is done.
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

/// Runs the jobs of the tasks that prefer it on a concurrent dispatch queue, whose threads are
/// not the cooperative pool's and grow when one blocks:
/// `Task(executorPreference: offThePool) { try await … }`.
final class OffThePoolExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "sandglass.tests.off-the-pool", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// The executor for async work a host-playing test waits on.
let offThePool = OffThePoolExecutor()

/// Runs each test of a suite off the cooperative pool, so that its waits for frames hold a
/// thread of their own and the SDK's own tasks (an action, a `Task` in a provider) can have the
/// pool.
struct RunsOffThePool: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @concurrent @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(offThePool) { try await function() }
    }
}

extension Trait where Self == RunsOffThePool {
    /// Each test runs off the cooperative pool.
    static var runsOffThePool: Self { Self() }
}

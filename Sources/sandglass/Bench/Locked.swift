import Synchronization

/// A value behind a lock, shared by reference (between the host's loop, which records events,
/// and the benchmark's task).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    func withLock<R>(_ body: (inout Value) -> R) -> R {
        mutex.withLock { body(&$0) }
    }
}

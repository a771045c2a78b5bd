import Dispatch

/// Runs work on the main thread, where the main queue is served (`dispatchMain()` in an
/// extension process).
enum MainThread {
    /// Runs `body` now when already on the main thread, else soon on the main queue.
    static func run(_ body: @escaping @MainActor @Sendable () -> Void) {
        if Thread.isMainThread {
            MainActor.assumeIsolated { body() }
        } else {
            DispatchQueue.main.async {
                MainActor.assumeIsolated { body() }
            }
        }
    }
}

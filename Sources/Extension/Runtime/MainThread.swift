import Dispatch
import Synchronization

/// Runs work on the main thread, where the main queue is served (`dispatchMain()` in an
/// extension process).
enum MainThread {
    /// Blocks asked for on the main thread while ``holdingBack(_:)`` runs; `nil` otherwise.
    private static let heldBack = Mutex<[@MainActor @Sendable () -> Void]?>(nil)

    /// Runs `body` now when already on the main thread (or, inside ``holdingBack(_:)``, once
    /// that returns), else soon on the main queue.
    static func run(_ body: @escaping @MainActor @Sendable () -> Void) {
        if Thread.isMainThread {
            let isHeld = heldBack.withLock { blocks in
                blocks?.append(body)
                return blocks != nil
            }
            if !isHeld { MainActor.assumeIsolated { body() } }
        } else {
            DispatchQueue.main.async {
                MainActor.assumeIsolated { body() }
            }
        }
    }

    /// Runs `work` on the main thread and returns, in order, the blocks it asked ``run(_:)``
    /// for instead of running them: the caller runs them when it is ready to.
    @MainActor
    static func holdingBack(_ work: () -> Void) -> [@MainActor @Sendable () -> Void] {
        heldBack.withLock { $0 = [] }
        work()
        return heldBack.withLock { blocks in
            defer { blocks = nil }
            return blocks ?? []
        }
    }
}

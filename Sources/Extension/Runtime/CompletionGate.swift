import Synchronization

/// Lets one call of a completion handler through; completions may be called from any thread.
final class CompletionGate: Sendable {
    private let called = Atomic<Bool>(false)

    /// `true` for the first call only.
    func claim() -> Bool {
        !called.exchange(true, ordering: .acquiringAndReleasing)
    }
}

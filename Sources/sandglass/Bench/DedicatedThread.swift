import Foundation

/// Runs `body` on a fresh thread (blocking calls, precise timing away from the host's loop and
/// the cooperative pool) and returns its result.
func onDedicatedThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}

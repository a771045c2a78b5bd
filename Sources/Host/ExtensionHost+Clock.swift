import Foundation

/// The run clock, for tests. On the virtual clock, time jumps from event to event only while
/// someone waits for it (``advance(by:)``, ``advance(by:until:)``, ``run(for:)``); in between it
/// flows at the real pace, so a test can look at the host, change its state and advance again.
/// Extensions see the same time: their `Date()` follows the run clock.
extension ExtensionHost {
    /// Lets `duration` pass on the run clock: on the virtual clock in a moment, jumping from one
    /// scheduled event (reload dates, budget windows, backoff, idle termination) to the next.
    ///
    /// ```swift
    /// await host.advance(by: .seconds(3 * 86_400))   // three days of reloads
    /// ```
    public func advance(by duration: Duration) async {
        _ = await core.advance(by: duration, until: nil)
    }

    /// Lets up to `duration` pass on the run clock, stopping as soon as an event satisfies
    /// `predicate` (the clock stops jumping at that event). Returns the event, or `nil` when
    /// `duration` passed first.
    ///
    /// Events recorded since the previous `advance` returned count too — those caused by calls
    /// made in between, such as a reload that was already served — and the first that matches is
    /// returned at once; the next call looks after it.
    ///
    /// ```swift
    /// let next = await host.advance(by: .seconds(3600)) { $0.kind == .timeline }
    /// ```
    public func advance(by duration: Duration, until predicate: @escaping @Sendable (HostEvent) -> Bool) async -> HostEvent? {
        await core.advance(by: duration, until: predicate)
    }

    /// The run clock's date now (virtual or real) — what extensions' `Date()` returns.
    public func now() async -> Date {
        await core.currentDate()
    }

    /// The first event (since the run started) named `name` that satisfies `predicate`, waiting up
    /// to `timeout` of real time.
    public func waitForEvent(
        named name: String, timeout: Duration = .seconds(20),
        where predicate: @escaping @Sendable (HostEvent) -> Bool = { _ in true }
    ) async throws -> HostEvent {
        try await waitForEvent(timeout: timeout) { $0.name == name && predicate($0) }
    }
}

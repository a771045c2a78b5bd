import NIOCore
import SandglassHost

/// The time the fixture server's `delay` and `interval` pass on.
///
/// By default they are real time. Give the server a host's ``ExtensionHost/fixturePacing`` and
/// they pass on that host's run clock: with `--clock virtual`, a response held for an hour is a
/// jump of the clock, not an hour of waiting.
public protocol FixturePacing: Sendable {
    /// Calls `body` once `delay` has passed (from any thread).
    func after(_ delay: Duration, _ body: @escaping @Sendable () -> Void)
}

/// Real time, on the server's event loop.
struct RealTimePacing: FixturePacing {
    let eventLoop: any NIOCore.EventLoop

    func after(_ delay: Duration, _ body: @escaping @Sendable () -> Void) {
        eventLoop.scheduleTask(in: .nanoseconds(Int64(delay.nanoseconds))) { body() }
    }
}

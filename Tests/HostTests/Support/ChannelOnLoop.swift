import SandglassIPC

@testable import SandglassHost

/// A host channel on a loop of its own, for tests: a channel is confined to its loop's thread,
/// and each call of this actor runs there, within one turn of the loop.
actor ChannelOnLoop {
    nonisolated let loop: EventLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }
    private var channel: Channel?

    init(name: String) throws { loop = try EventLoop(name: name) }

    /// Runs `body` with the channel on `fd` (made at the first call), in one turn of the loop.
    func withChannel<T: Sendable>(on fd: Int32, _ body: @Sendable (Channel) -> T) -> T {
        let channel = self.channel ?? Channel(fd: fd, loop: loop, maximumFrameLength: Frame.defaultMaximumLength) { _ in }
        self.channel = channel
        return body(channel)
    }

    /// Runs `body` with the loop, in one turn of it.
    func run<T: Sendable>(_ body: @Sendable (EventLoop) -> T) -> T {
        body(loop)
    }

    /// Closes the channel (its descriptor leaves the loop's watch); the caller then stops the loop.
    func close() {
        channel?.close()
        channel = nil
    }
}

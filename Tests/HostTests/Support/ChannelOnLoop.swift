import SandglassIPC
import Synchronization

@testable import SandglassHost

/// A host channel on a loop of its own, for tests: a channel is confined to its loop's thread,
/// and each call of this actor runs there, within one turn of the loop.
actor ChannelOnLoop {
    nonisolated let loop: EventLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }
    private var channel: Channel?
    /// How many times the channel told that its peer does not read (``Channel/Event/overflowed(pending:)``).
    nonisolated let overflows = LineCount()

    init(name: String) throws { loop = try EventLoop(name: name) }

    /// Runs `body` with the channel on `fd` (made at the first call), in one turn of the loop.
    func withChannel<T: Sendable>(on fd: Int32, _ body: @Sendable (Channel) -> T) -> T {
        let overflows = overflows
        let channel =
            self.channel
            ?? Channel(fd: fd, loop: loop, maximumFrameLength: Frame.defaultMaximumLength) { event in
                if case .overflowed = event { overflows.value.withLock { $0 += 1 } }
            }
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

import CSandbox
import Foundation
import Glibc
import SandglassIPC
import Testing

@testable import SandglassHost

/// A channel held to the end of the loop's turn writes nothing during the turn, then all of it
/// at once: the host welcomes a launching extension and sends the activation waiting for the
/// launch in one write, so the extension finds both in its first read.
@Suite("Channel held to the end of the turn")
struct ChannelHoldTests {
    private let frames: [Message] = [
        .welcome(Welcome(version: .current, clockMode: .real, clockEpoch: 0, containerPath: "/containers/x")),
        .backgroundEventsRequest(RequestID(1), identifier: "com.example.feed")
    ]

    /// Bytes `fd` could read now, without taking them.
    private static func readable(_ fd: Int32) -> Int {
        var buffer = [UInt8](repeating: 0, count: 4096)
        return max(0, recv(fd, &buffer, buffer.count, Int32(MSG_PEEK | MSG_DONTWAIT)))
    }

    private func socketPair() -> (host: Int32, peer: Int32) {
        var pair: [Int32] = [-1, -1]
        #expect(sg_socketpair_stream(&pair) == 0)
        _ = sg_set_nonblocking(pair[0])
        return (pair[0], pair[1])
    }

    /// Everything `fd` receives until `count` bytes came or 10 s passed, and the reads it took.
    private func receive(_ fd: Int32, count: Int) -> (bytes: [UInt8], reads: Int) {
        var bytes: [UInt8] = []
        var reads = 0
        let deadline = ContinuousClock.now + .seconds(10)
        while bytes.count < count, ContinuousClock.now < deadline {
            var poll = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard Glibc.poll(&poll, 1, 100) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { break }
            bytes += buffer[0..<n]
            reads += 1
        }
        return (bytes, reads)
    }

    @Test(
        "held, nothing is written during the turn and both frames come in one read after it; not held, each is written as it is sent",
        arguments: [true, false])
    func heldUntilTheTurnEnds(holding: Bool) async throws {
        let (host, peer) = socketPair()
        defer { Glibc.close(peer) }
        let channels = try ChannelOnLoop(name: "channel-hold")
        let frames = frames
        let duringTurn = await channels.withChannel(on: host) { channel in
            if holding { channel.holdUntilEndOfTurn() }
            for message in frames { channel.send(message) }
            return Self.readable(peer)
        }
        let expected = frames.flatMap { Frame.encode($0) }
        let (bytes, reads) = receive(peer, count: expected.count)
        await channels.close()
        channels.loop.stop()
        #expect(bytes == expected)
        if holding {
            #expect(duringTurn == 0)
            #expect(reads == 1)
        } else {
            #expect(duringTurn > 0, "readable during the turn (a peek may stop at the first write's end)")
        }
    }

    @Test("closed while held, the held frame is written before the socket closes")
    func closeWritesWhatIsHeld() async throws {
        let (host, peer) = socketPair()
        defer { Glibc.close(peer) }
        let channels = try ChannelOnLoop(name: "channel-hold")
        let welcome = frames[0]
        await channels.withChannel(on: host) { channel in
            channel.holdUntilEndOfTurn()
            channel.send(welcome)
            channel.close()
        }
        let expected = Frame.encode(welcome)
        let (bytes, _) = receive(peer, count: expected.count)
        var byte: UInt8 = 0
        let afterwards = recv(peer, &byte, 1, 0)
        channels.loop.stop()
        #expect(bytes == expected)
        #expect(afterwards == 0, "end of stream after the held frame")
    }

    @Test("a job queued by a job of the turn runs before the turn ends")
    func jobsOfJobsRunInTheTurn() async throws {
        let channels = try ChannelOnLoop(name: "channel-hold")
        let order = OrderRecorder()
        await channels.run { loop in
            loop.atEndOfTurn { order.append("end of turn") }
            Task(executorPreference: loop) { order.append("job") }
        }
        order.wait(for: 2, within: 10)
        channels.loop.stop()
        #expect(order.entries == ["job", "end of turn"])
    }
}

/// Entries appended from the loop thread, read after.
final class OrderRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private let appended = DispatchSemaphore(value: 0)
    private var recorded: [String] = []

    func append(_ entry: String) {
        lock.withLock { recorded.append(entry) }
        appended.signal()
    }

    /// Waits until `count` entries were appended, or `seconds` passed.
    func wait(for count: Int, within seconds: Double) {
        let deadline = DispatchTime.now() + seconds
        for _ in 0..<count where appended.wait(timeout: deadline) == .timedOut { return }
    }

    var entries: [String] { lock.withLock { recorded } }
}

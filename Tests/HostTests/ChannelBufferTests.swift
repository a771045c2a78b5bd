import CSandbox
import Foundation
import Glibc
import SandglassIPC
import Testing

@testable import SandglassHost

/// The host's output buffer of one channel holds what waits for the peer, not everything it
/// ever sent: a peer that always leaves some of it unread — never over the limit on unread
/// bytes, never all read — does not grow the host's memory without end.
@Suite("Channel output buffer")
struct ChannelBufferTests {
    @Test("a peer that reads at the pace it is sent to, always behind, keeps the buffer bounded")
    func bounded() async throws {
        var pair: [Int32] = [-1, -1]
        #expect(sg_socketpair_stream(&pair) == 0)
        _ = sg_set_nonblocking(pair[0])
        let peer = pair[1]
        defer { Glibc.close(peer) }
        let channels = try ChannelOnLoop(name: "channel-buffer")
        let chunk = Message.taskData(session: "", taskIdentifier: 1, [UInt8](repeating: 0x61, count: 60 << 10))
        let frame = Frame.encode(chunk).count
        // A backlog the kernel cannot take at once, then a frame sent for each one read.
        _ = await channels.withChannel(on: pair[0]) { channel in
            for _ in 0..<32 { channel.send(chunk) }
        }
        var largest = 0
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        for _ in 0..<200 {
            var read = 0
            while read < frame {
                var poll = pollfd(fd: peer, events: Int16(POLLIN), revents: 0)
                guard Glibc.poll(&poll, 1, 10_000) > 0 else { break }
                let n = recv(peer, &buffer, min(buffer.count, frame - read), 0)
                guard n > 0 else { break }
                read += n
            }
            try #require(read == frame, "the host stopped writing")
            let (pending, buffered) = await channels.withChannel(on: pair[0]) { channel in
                channel.send(chunk)
                return (channel.pendingOutput, channel.bufferedOutput)
            }
            #expect(pending > 0 && pending < 8 << 20)
            largest = max(largest, buffered)
        }
        await channels.close()
        channels.loop.stop()
        // 232 frames of 60 KiB went through it (13.6 MiB); what it held stayed near the backlog.
        #expect(largest < 4 << 20, "the buffer held \(largest) bytes")
    }

    @Test(
        "a peer that reads nothing: the host queues up to the limit and one frame past it, refuses the rest (closing their descriptors), and tells the overflow once"
    )
    func refusedPastTheLimit() async throws {
        var pair: [Int32] = [-1, -1]
        #expect(sg_socketpair_stream(&pair) == 0)
        _ = sg_set_nonblocking(pair[0])
        let peer = pair[1]
        defer { Glibc.close(peer) }
        let channels = try ChannelOnLoop(name: "channel-refuse")
        let chunk = Message.taskData(session: "", taskIdentifier: 1, [UInt8](repeating: 0x61, count: 60 << 10))
        let frame = Frame.encode(chunk).count
        // 12 MiB in one turn of the loop, as a flood of requests whose answers are large would
        // queue them; the last send passes a descriptor.
        // The descriptor passed is a pipe's only write end: once the channel closes it, its read
        // end reads the end of the stream (a number freed could be reused by another test).
        var pipe: [Int32] = [-1, -1]
        #expect(sg_pipe(&pipe) == 0)
        _ = sg_set_nonblocking(pipe[0])
        defer { Glibc.close(pipe[0]) }
        let writeEnd = pipe[1]
        let (accepted, pending, limit) = await channels.withChannel(on: pair[0]) { channel in
            var accepted = 0
            for _ in 0..<200 where channel.send(chunk) { accepted += 1 }
            _ = channel.send(chunk, passing: writeEnd)
            return (accepted, channel.pendingOutput, channel.maximumOutbound)
        }
        #expect(pending <= limit + frame, "\(pending) bytes wait for a peer that reads nothing")
        #expect(accepted < 200 && accepted >= limit / frame - 1, "\(accepted) of 200 frames were queued")
        var byte: UInt8 = 0
        #expect(Glibc.read(pipe[0], &byte, 1) == 0, "the refused frame's descriptor is still open")
        // Told at the end of the turn (the loop may run the next jobs in the same turn first), once.
        let deadline = Date().addingTimeInterval(10)
        while channels.overflows.count == 0 && Date() < deadline { _ = await channels.run { _ in 0 } }
        for _ in 0..<10 { _ = await channels.run { _ in 0 } }
        #expect(channels.overflows.count == 1, "told \(channels.overflows.count) times")
        await channels.close()
        channels.loop.stop()
    }
}

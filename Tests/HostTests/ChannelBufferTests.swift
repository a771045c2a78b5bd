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
}

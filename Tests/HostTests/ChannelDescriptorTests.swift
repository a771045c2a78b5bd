import CSandbox
import Foundation
import Glibc
import SandglassIPC
import Testing

@testable import SandglassHost

/// The host's channel passes a descriptor with the first byte of its frame, however a full
/// socket splits the frames: the read that returns it holds that byte (the kernel may join
/// earlier bytes to it, never later ones), so the SDK has it by the time the frame is whole.
@Suite("Channel descriptors")
struct ChannelDescriptorTests {
    private func file(_ text: String) throws -> Int32 {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("channel-\(UUID().uuidString)").path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        defer { unlink(path) }
        return open(path, O_RDONLY | O_CLOEXEC)
    }

    @Test("each descriptor arrives with the first byte of its frame, behind a frame larger than the socket buffer")
    func descriptorsWithTheirFrames() async throws {
        var pair: [Int32] = [-1, -1]
        #expect(sg_socketpair_stream(&pair) == 0)
        defer { Glibc.close(pair[1]) }
        _ = sg_set_nonblocking(pair[0])
        let response = HTTPResponsePayload(url: "http://x/", statusCode: 200, headers: [], expectedContentLength: 5)
        let messages: [(Message, Int32?)] = [
            (.ping(1), nil),
            (.downloadFinished(session: "", taskIdentifier: 1, nil, file: "one", response), try file("first")),
            (.taskData(session: "", taskIdentifier: 2, [UInt8](repeating: 7, count: 600_000)), nil),
            (.downloadFinished(session: "s", taskIdentifier: 3, nil, file: "two", response), try file("second")),
            (.ping(2), nil)
        ]
        var starts: [Int] = []
        var offset = 0
        for (message, _) in messages {
            starts.append(offset)
            offset += Frame.encode(message).count
        }
        let sender = try ChannelOnLoop(name: "channel-test")
        await sender.withChannel(on: pair[0]) { channel in
            for (message, descriptor) in messages { channel.send(message, passing: descriptor) }
        }

        var stream: [UInt8] = []
        var arrivals: [(range: Range<Int>, fds: [Int32])] = []
        let deadline = ContinuousClock.now + .seconds(20)
        while stream.count < offset, ContinuousClock.now < deadline {
            var poll = pollfd(fd: pair[1], events: Int16(POLLIN), revents: 0)
            _ = Glibc.poll(&poll, 1, 100)
            let (bytes, fds) = receive(pair[1])
            if !fds.isEmpty { arrivals.append((stream.count..<stream.count + bytes.count, fds)) }
            stream += bytes
        }
        await sender.close()
        sender.loop.stop()
        #expect(stream.count == offset)
        #expect(arrivals.count == 2)
        for (arrival, start) in zip(arrivals, [starts[1], starts[3]]) {
            #expect(arrival.range.contains(start), "the descriptor of the frame at \(start) came with bytes \(arrival.range)")
        }
        #expect(arrivals.map(\.fds.count) == [1, 1])
        let contents = arrivals.flatMap(\.fds).map { fd -> String in
            defer { Glibc.close(fd) }
            var buffer = [UInt8](repeating: 0, count: 64)
            let n = read(fd, &buffer, buffer.count)
            return String(decoding: buffer[0..<max(0, n)], as: UTF8.self)
        }
        #expect(contents == ["first", "second"])
    }

    /// One recvmsg: the bytes and the SCM_RIGHTS descriptors that came with them.
    private func receive(_ fd: Int32) -> ([UInt8], [Int32]) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var control = [UInt8](repeating: 0, count: 256)
        var controlLength = 0
        let n = buffer.withUnsafeMutableBytes { data in
            control.withUnsafeMutableBytes { ctl in
                var iov = iovec(iov_base: data.baseAddress, iov_len: data.count)
                return withUnsafeMutablePointer(to: &iov) { iovPointer in
                    var header = msghdr()
                    header.msg_iov = iovPointer
                    header.msg_iovlen = 1
                    header.msg_control = ctl.baseAddress
                    header.msg_controllen = ctl.count
                    let n = recvmsg(fd, &header, Int32(MSG_DONTWAIT | MSG_CMSG_CLOEXEC))
                    controlLength = n > 0 ? Int(header.msg_controllen) : 0
                    return n
                }
            }
        }
        guard n > 0 else { return ([], []) }
        var fds: [Int32] = []
        let header = MemoryLayout<cmsghdr>.size
        control.withUnsafeBytes { ctl in
            var at = 0
            while at + header <= controlLength {
                let length = ctl.loadUnaligned(fromByteOffset: at, as: Int.self)
                let type = ctl.loadUnaligned(fromByteOffset: at + 12, as: Int32.self)
                if type == Int32(SCM_RIGHTS) {
                    var p = at + header
                    while p + 4 <= at + length { fds.append(ctl.loadUnaligned(fromByteOffset: p, as: Int32.self)); p += 4 }
                }
                at += (length + 7) / 8 * 8
            }
        }
        return (Array(buffer[0..<n]), fds)
    }
}

import SandglassIPC
import Testing

/// The decoder sees the stream in pieces of any size: byte by byte, random splits, many frames per chunk.
@Suite("Partial reads")
struct PartialReadTests {
    private static var stream: [UInt8] { Samples.all.flatMap(Frame.encode) }

    @Test("byte by byte: nothing until the last byte of each frame")
    func byteByByte() throws {
        var decoder = FrameDecoder()
        var decoded: [Message] = []
        for message in Samples.all {
            let frame = Frame.encode(message)
            for (index, byte) in frame.enumerated() {
                decoder.append([byte])
                let next = try decoder.next()
                if index == frame.count - 1 {
                    #expect(next == message)
                    if let next { decoded.append(next) }
                } else {
                    #expect(next == nil, "a message came out \(frame.count - 1 - index) bytes early")
                    #expect(decoder.bufferedByteCount == index + 1)
                }
            }
        }
        #expect(decoded == Samples.all)
    }

    @Test("random split points", arguments: [1, 2, 3, 42, 0xC0FFEE] as [UInt64])
    func randomSplits(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let stream = Self.stream
        var decoder = FrameDecoder()
        var decoded: [Message] = []
        var index = 0
        while index < stream.count {
            let size = Int.random(in: 1...64, using: &rng)
            let end = min(stream.count, index + size)
            decoder.append(stream[index..<end])
            index = end
            while let message = try decoder.next() { decoded.append(message) }
        }
        #expect(decoded == Samples.all)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test("every split of every frame into two reads")
    func everyTwoWaySplit() throws {
        for message in Samples.all.prefix(40) {
            let frame = Frame.encode(message)
            for cut in 0...frame.count {
                var decoder = FrameDecoder()
                decoder.append(frame[..<cut])
                if cut < frame.count { #expect(try decoder.next() == nil) }
                decoder.append(frame[cut...])
                #expect(try decoder.next() == message)
                #expect(try decoder.next() == nil)
            }
        }
    }

    @Test("all frames in one chunk")
    func oneChunk() throws {
        #expect(try Wire.decodeAll(Self.stream) == Samples.all)
    }

    @Test("several whole frames and a partial one in a chunk")
    func wholeAndPartial() throws {
        let first = Frame.encode(.reloadAllTimelines)
        let second = Frame.encode(.log(LogRecord(level: .warning, message: Samples.unicode)))
        let third = Frame.encode(.performUpdateRequest(RequestID(300)))
        var decoder = FrameDecoder()
        decoder.append(first + second + third.prefix(3))
        #expect(try decoder.next() == .reloadAllTimelines)
        #expect(try decoder.next() == .log(LogRecord(level: .warning, message: Samples.unicode)))
        #expect(try decoder.next() == nil)
        #expect(decoder.bufferedByteCount == 3)
        decoder.append(third.dropFirst(3))
        #expect(try decoder.next() == .performUpdateRequest(RequestID(300)))
        #expect(try decoder.next() == nil)
    }

    @Test("the UnsafeRawBufferPointer overload appends the same bytes")
    func rawBufferAppend() throws {
        let stream = Self.stream
        var decoder = FrameDecoder()
        stream.withUnsafeBytes { decoder.append($0) }
        var decoded: [Message] = []
        while let message = try decoder.next() { decoded.append(message) }
        #expect(decoded == Samples.all)
    }
}

import SandglassIPC
import Testing

/// Every message survives `Frame.encode` followed by `FrameDecoder`.
@Suite("Round trip")
struct RoundTripTests {
    @Test("the samples cover every message type")
    func samplesCoverEveryType() {
        #expect(Set(Samples.all.map(\.type)) == Set(MessageType.allCases))
    }

    @Test("each message round-trips on its own", arguments: Samples.all)
    func roundTrip(_ message: Message) throws {
        let frame = Frame.encode(message)
        #expect(frame.count >= Frame.lengthSize + 1)
        let announced = frame.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        #expect(announced == frame.count - Frame.lengthSize)
        #expect(frame[Frame.lengthSize] == message.type.rawValue)

        var decoder = FrameDecoder()
        decoder.append(frame)
        #expect(try decoder.next() == message)
        #expect(try decoder.next() == nil)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test("Frame.decode decodes a payload directly", arguments: Samples.all)
    func frameDecode(_ message: Message) throws {
        let payload = Wire.payload(of: message)
        #expect(try Frame.decode(typeByte: message.type.rawValue, payload: payload[...]) == message)
    }

    @Test("Frame.append writes the same bytes as Frame.encode, back to back")
    func appendConcatenates() throws {
        var buffer: [UInt8] = []
        for message in Samples.all { Frame.append(message, to: &buffer) }
        #expect(buffer == Samples.all.flatMap(Frame.encode))
        #expect(try Wire.decodeAll(buffer) == Samples.all)
    }

    @Test("present-but-empty optionals stay distinct from absent ones")
    func emptyVersusAbsent() throws {
        let present = Message.entryReply(RequestID(1), EntryPayload(date: 0, json: [], text: ""))
        let absent = Message.entryReply(RequestID(1), EntryPayload(date: 0, json: [], text: nil))
        #expect(Frame.encode(present) != Frame.encode(absent))
        #expect(try Wire.decodeAll(Frame.encode(present)) == [present])
        #expect(try Wire.decodeAll(Frame.encode(absent)) == [absent])
    }

    @Test("a NaN keeps its bit pattern")
    func nanBitPattern() throws {
        let nan = Double(bitPattern: 0x7FF8_0000_DEAD_BEEF)
        let message = Message.welcome(Welcome(version: .current, clockMode: .real, clockEpoch: nan, containerPath: "/c"))
        guard case .welcome(let decoded) = try Wire.decodeAll(Frame.encode(message)).first else {
            Issue.record("no welcome decoded")
            return
        }
        #expect(decoded.clockEpoch.bitPattern == nan.bitPattern)
    }

    @Test("a request id of UInt64.max takes ten varint bytes and comes back")
    func maximumVarint() throws {
        let message = Message.performUpdateRequest(RequestID(.max))
        #expect(Wire.payload(of: message) == [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
        #expect(try Wire.decodeAll(Frame.encode(message)) == [message])
    }

    @Test("a frame exactly at the maximum length is accepted")
    func exactlyAtMaximum() throws {
        // type byte + 1-byte string length + 14 bytes = 16.
        let message = Message.reloadTimelines(kind: String(repeating: "k", count: 14))
        let frame = Frame.encode(message)
        #expect(frame.count - Frame.lengthSize == 16)
        #expect(try Wire.decodeAll(frame, maximumLength: 16) == [message])
    }

    @Test("large entries round-trip, and the decoder reclaims space across many of them")
    func largeFrames() throws {
        let big = (0..<10).map { i in
            Message.entryReply(RequestID(UInt64(i)), EntryPayload(date: Double(i), json: Array(repeating: UInt8(i), count: 40_000 + i)))
        }
        var stream: [UInt8] = []
        for message in big { Frame.append(message, to: &stream) }
        var decoder = FrameDecoder()
        var decoded: [Message] = []
        // Big chunks that end mid-frame, so consumed bytes accumulate before the buffer empties.
        var index = 0
        while index < stream.count {
            let end = min(stream.count, index + 100_003)
            decoder.append(stream[index..<end])
            index = end
            while let message = try decoder.next() { decoded.append(message) }
        }
        #expect(decoded == big)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test("type and requestID name what the message carries")
    func typeAndRequestID() {
        #expect(Message.performUpdateRequest(RequestID(7)).requestID == RequestID(7))
        #expect(Message.error(ErrorReport(requestID: RequestID(9), code: .other, message: "")).requestID == RequestID(9))
        #expect(Message.error(ErrorReport(code: .other, message: "")).requestID == nil)
        #expect(Message.reloadAllTimelines.requestID == nil)
        #expect(Message.reloadAllTimelines.type == .reloadAllTimelines)
    }
}

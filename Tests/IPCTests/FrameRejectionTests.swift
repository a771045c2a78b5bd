import SandglassIPC
import Testing

/// Frame-level violations: oversize and empty length prefixes, unknown type bytes, and the
/// decoder staying failed afterwards.
@Suite("Frame rejections")
struct FrameRejectionTests {
    @Test("an oversize length is refused from the 4 header bytes alone")
    func oversizeFromHeader() throws {
        var decoder = FrameDecoder(maximumLength: 16)
        let header = Wire.header(17)
        for byte in header.prefix(3) {
            decoder.append([byte])
            #expect(try decoder.next() == nil)
        }
        decoder.append([header[3]])
        #expect(throws: ProtocolError.oversizeFrame(length: 17, limit: 16)) { try decoder.next() }
    }

    @Test("the default limit is 1 MiB, and the largest length prefix is reported as announced")
    func oversizeDefaultLimit() {
        #expect(Frame.defaultMaximumLength == 1_048_576)
        #expect(Wire.error(decoding: Wire.header(1_048_577)) == .oversizeFrame(length: 1_048_577, limit: 1_048_576))
        #expect(Wire.error(decoding: Wire.header(.max)) == .oversizeFrame(length: 4_294_967_295, limit: 1_048_576))
        // The limit itself is not over the limit: a header alone just waits for its bytes.
        #expect(Wire.error(decoding: Wire.header(1_048_576)) == nil)
    }

    @Test("an oversize frame after good ones is refused once the good ones are out")
    func oversizeAfterGoodFrames() throws {
        var decoder = FrameDecoder(maximumLength: 64)
        decoder.append(Frame.encode(.reloadAllTimelines) + Frame.encode(.performUpdateRequest(RequestID(1))) + Wire.header(65))
        #expect(try decoder.next() == .reloadAllTimelines)
        #expect(try decoder.next() == .performUpdateRequest(RequestID(1)))
        #expect(throws: ProtocolError.oversizeFrame(length: 65, limit: 64)) { try decoder.next() }
    }

    @Test("a zero length prefix is an empty frame")
    func zeroLength() throws {
        var decoder = FrameDecoder()
        decoder.append([0, 0, 0])
        #expect(try decoder.next() == nil)
        decoder.append([0])
        #expect(throws: ProtocolError.emptyFrame) { try decoder.next() }
    }

    @Test("every byte that names no message is refused as soon as it arrives")
    func unknownTypes() throws {
        let known = Set(MessageType.allCases.map(\.rawValue))
        for byte in UInt8.min...UInt8.max where !known.contains(byte) {
            var decoder = FrameDecoder()
            // The length announces a payload that never comes: the type byte alone decides.
            decoder.append(Wire.header(1000))
            #expect(try decoder.next() == nil)
            decoder.append([byte])
            #expect(throws: ProtocolError.unknownMessageType(byte)) { try decoder.next() }
            #expect(throws: ProtocolError.unknownMessageType(byte)) {
                try Frame.decode(typeByte: byte, payload: [])
            }
        }
    }

    @Test(
        "at the host, a message only the host sends is refused at its type byte, before its payload (a megabyte of currentConfigurations decodes to 30 MB); an extension's waits for its payload"
    )
    func hostOnlyTypes() throws {
        for type in MessageType.allCases {
            var decoder = FrameDecoder(accepting: MessageType.sentByExtensions)
            decoder.append(Wire.header(1 << 20) + [type.rawValue])
            if MessageType.sentByHostOnly.contains(type) {
                #expect(throws: ProtocolError.unexpectedMessageType(type)) { try decoder.next() }
            } else {
                #expect(try decoder.next() == nil, "\(type)")
            }
        }
        #expect(MessageType.sentByExtensions.isSuperset(of: [.hello, .error, .log, .pong, .createTask, .timelineReply]))
    }

    @Test("every known type byte waits for its payload")
    func knownTypesWait() throws {
        for type in MessageType.allCases {
            var decoder = FrameDecoder()
            decoder.append(Wire.header(1000) + [type.rawValue])
            #expect(try decoder.next() == nil)
        }
    }

    @Test(
        "after an error the decoder keeps throwing it, whatever arrives next",
        arguments: [
            (Wire.header(2_000_000), ProtocolError.oversizeFrame(length: 2_000_000, limit: 1_048_576)),
            (Wire.header(0), ProtocolError.emptyFrame),
            (Wire.header(5) + [0xEE], ProtocolError.unknownMessageType(0xEE)),
            (
                Wire.frame(.reloadAllTimelines, payload: [1]),
                ProtocolError.malformedPayload(.reloadAllTimelines, reason: "1 trailing bytes after the message", offset: 0, payloadSize: 1)
            )
        ])
    func errorIsFinal(bytes: [UInt8], expected: ProtocolError) throws {
        var decoder = FrameDecoder()
        decoder.append(bytes)
        #expect(throws: expected) { try decoder.next() }
        decoder.append(Frame.encode(.reloadAllTimelines))
        #expect(throws: expected) { try decoder.next() }
        #expect(throws: expected) { try decoder.next() }
    }

    @Test("a bad frame between good ones: the first comes out, then the error, for good")
    func badFrameMidStream() throws {
        var decoder = FrameDecoder()
        decoder.append(
            Frame.encode(.reloadTimelines(kind: "a")) + Wire.frame(.log, payload: [9, 0])
                + Frame.encode(.reloadAllTimelines))
        #expect(try decoder.next() == .reloadTimelines(kind: "a"))
        let expected = ProtocolError.malformedPayload(.log, reason: "log level: unknown value 9", offset: 0, payloadSize: 2)
        #expect(throws: expected) { try decoder.next() }
        #expect(throws: expected) { try decoder.next() }
    }

    @Test("descriptions name the byte counts and the offending values")
    func descriptions() {
        #expect(
            ProtocolError.oversizeFrame(length: 2_000_000, limit: 1_048_576).description
                == "oversize frame: the length prefix announces 2000000 bytes, the limit is 1048576")
        #expect(
            ProtocolError.emptyFrame.description
                == "empty frame: the length prefix is 0, a frame needs at least its 1-byte type")
        #expect(ProtocolError.unknownMessageType(0xEE).description == "unknown message type 0xEE")
        #expect(
            ProtocolError.malformedPayload(
                .reloadTimelines, reason: "kind: length 5 exceeds the 2 bytes left",
                offset: 0, payloadSize: 3
            ).description
                == "malformed reloadTimelines payload: kind: length 5 exceeds the 2 bytes left at byte 0 of 3")
        #expect(
            ProtocolError.outOfOrder(.welcome, reason: "the host sends welcome").description
                == "welcome out of protocol order: the host sends welcome")
        #expect(
            String(describing: Wire.error(.reloadTimelines, payload: [5, 0x61, 0x62])!)
                == "malformed reloadTimelines payload: kind: length 5 exceeds the 2 bytes left at byte 0 of 3")
    }
}

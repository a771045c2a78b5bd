import SandglassIPC
import Testing

/// Payloads that do not decode as their type says, each with the exact error: reason,
/// offset within the payload, and payload size.
@Suite("Malformed payloads")
struct PayloadRejectionTests {
    private static func malformed(_ type: MessageType, _ reason: String, at offset: Int, of size: Int) -> ProtocolError {
        .malformedPayload(type, reason: reason, offset: offset, payloadSize: size)
    }

    // MARK: Truncation

    @Test("a string shorter than its length")
    func truncatedString() {
        #expect(
            Wire.error(.reloadTimelines, payload: [5, 0x61, 0x62])
                == Self.malformed(.reloadTimelines, "kind: length 5 exceeds the 2 bytes left", at: 0, of: 3))
        #expect(
            Wire.error(.reloadTimelines, payload: [])
                == Self.malformed(.reloadTimelines, "kind: varint runs past the end of the payload", at: 0, of: 0))
    }

    @Test("a double or float cut short")
    func truncatedNumbers() {
        #expect(
            Wire.error(.welcome, payload: [1, 0, 0, 1, 2, 3])
                == Self.malformed(.welcome, "clock epoch: needs 8 bytes, 3 left", at: 3, of: 6))
        let entry = Wire.payload { w in
            w.writeVarint(UInt64(1))
            w.write(0.0 as Double)
            w.write(true)
            w.append(contentsOf: [0xAA, 0xBB])
        }
        #expect(
            Wire.error(.entryReply, payload: entry)
                == Self.malformed(.entryReply, "relevance score: needs 4 bytes, 2 left", at: 10, of: 12))
    }

    @Test("every proper prefix of every payload is malformed, never a crash", arguments: Samples.all)
    func everyPrefix(_ message: Message) {
        let payload = Wire.payload(of: message)
        for cut in 0..<payload.count {
            let error = Wire.error(message.type, payload: Array(payload[..<cut]))
            guard case .malformedPayload(let type, _, let offset, let size)? = error else {
                Issue.record("prefix of \(cut) bytes: \(String(describing: error))")
                continue
            }
            #expect(type == message.type)
            #expect(size == cut)
            #expect(offset <= size)
        }
    }

    // MARK: Strings

    @Test(
        "invalid UTF-8 is refused",
        arguments: [
            [0xC3, 0x28], // a lead byte followed by ASCII
            [0xC0, 0xAF], // overlong "/"
            [0xED, 0xA0, 0x80], // a UTF-16 surrogate
            [0xF4, 0x90, 0x80, 0x80], // above U+10FFFF
            [0x61, 0xFF], // 0xFF never appears in UTF-8
            [0xE2, 0x82] // a sequence cut short
        ] as [[UInt8]])
    func invalidUTF8(_ bytes: [UInt8]) {
        #expect(
            Wire.error(.reloadTimelines, payload: [UInt8(bytes.count)] + bytes)
                == Self.malformed(.reloadTimelines, "kind: \(bytes.count) bytes are not valid UTF-8", at: 0, of: bytes.count + 1))
    }

    @Test("invalid UTF-8 deep in a hello names the field and its offset")
    func invalidUTF8InHello() {
        let payload = Wire.payload { w in
            w.write(UInt16(1))
            w.write(UInt16(0))
            w.write("id")
            w.write(ExtensionRole.widgetKit.rawValue)
            w.writeVarint(1) // one widget
            w.write(bytes: [0x80]) // its kind: a lone continuation byte
        }
        #expect(
            Wire.error(.hello, payload: payload)
                == Self.malformed(.hello, "widget kind: 1 bytes are not valid UTF-8", at: 7, of: 9))
    }

    // MARK: Booleans

    @Test("a boolean byte other than 0 or 1")
    func badBool() {
        var hello = Wire.payload(of: .hello(Samples.hellos[0]))
        hello[hello.count - 1] = 2
        #expect(
            Wire.error(.hello, payload: hello)
                == Self.malformed(
                    .hello, "matches sessions by closure: boolean byte is 2, expected 0 or 1",
                    at: hello.count - 1, of: hello.count))

        let placeholder = Wire.payload { w in
            w.writeVarint(UInt64(5))
            w.write("k")
            w.write("f")
            w.write(UInt8(0xFF))
            w.write(1.0 as Double)
            w.write(1.0 as Double)
        }
        #expect(
            Wire.error(.placeholderRequest, payload: placeholder)
                == Self.malformed(.placeholderRequest, "isPreview: boolean byte is 255, expected 0 or 1", at: 5, of: 22))
    }

    @Test("an optional's presence byte other than 0 or 1")
    func badPresence() {
        #expect(
            Wire.error(.error, payload: [7, 1, 0])
                == Self.malformed(.error, "request id presence: boolean byte is 7, expected 0 or 1", at: 0, of: 3))
        let entry = Wire.payload { w in
            w.writeVarint(UInt64(1))
            w.write(0.0 as Double)
            w.write(UInt8(2))
            w.writeVarint(0)
            w.write(false)
        }
        #expect(
            Wire.error(.entryReply, payload: entry)
                == Self.malformed(.entryReply, "relevance presence: boolean byte is 2, expected 0 or 1", at: 9, of: 12))
    }

    // MARK: Enumerations

    @Test("unknown raw values of every enumeration")
    func unknownEnums() {
        #expect(
            Wire.error(.hello, payload: [1, 0, 0, 2, 0, 0, 0])
                == Self.malformed(.hello, "role: unknown value 2", at: 3, of: 7))
        #expect(
            Wire.error(.welcome, payload: [1, 0, 2] + Array(repeating: 0, count: 8) + [0])
                == Self.malformed(.welcome, "clock mode: unknown value 2", at: 2, of: 12))
        #expect(
            Wire.error(.updateResultReply, payload: [1, 3])
                == Self.malformed(.updateResultReply, "update result: unknown value 3", at: 1, of: 2))
        #expect(
            Wire.error(.log, payload: [6, 0])
                == Self.malformed(.log, "log level: unknown value 6", at: 0, of: 2))
        #expect(
            Wire.error(.timelineReply, payload: [1, 0, 3])
                == Self.malformed(.timelineReply, "reload policy: unknown value 3", at: 2, of: 3))
        #expect(
            Wire.error(.error, payload: [0, 5, 0])
                == Self.malformed(.error, "error code: unknown value 5", at: 1, of: 3))
        #expect(
            Wire.error(.error, payload: [0, 0xFE, 0xFF, 0x03, 0])
                == Self.malformed(.error, "error code: unknown value 65534", at: 1, of: 5))
        #expect(
            Wire.error(.error, payload: [0, 0xF0, 0xA2, 0x04, 0])
                == Self.malformed(.error, "error code: 70000 does not fit 16 bits", at: 1, of: 5))
    }

    @Test("every byte value of a one-byte enumeration either decodes to its case or is refused")
    func everyEnumByte() {
        for raw in UInt8.min...UInt8.max {
            let logError = Wire.error(.log, payload: [raw, 0])
            let resultError = Wire.error(.updateResultReply, payload: [0, raw])
            let roleError = Wire.error(.hello, payload: [1, 0, 0, raw, 0, 0, 0])
            #expect((logError == nil) == (LogLevel(rawValue: raw) != nil))
            #expect((resultError == nil) == (UpdateResultCode(rawValue: raw) != nil))
            #expect((roleError == nil) == (ExtensionRole(rawValue: raw) != nil))
        }
    }

    // MARK: Bounds

    @Test("a timeline of more entries than a timeline may have is refused by its count, before its entries are decoded")
    func tooManyEntries() throws {
        let entry = EntryPayload(date: 0, json: Array("{}".utf8))
        let most = Wire.payload(
            of: .timelineReply(
                RequestID(1), TimelinePayload(entries: Array(repeating: entry, count: TimelinePayload.maximumEntries), policy: .never)))
        #expect(Wire.error(.timelineReply, payload: most) == nil)
        let over = Wire.payload(
            of: .timelineReply(
                RequestID(1), TimelinePayload(entries: Array(repeating: entry, count: TimelinePayload.maximumEntries + 1), policy: .never)))
        #expect(
            Wire.error(.timelineReply, payload: over)
                == Self.malformed(
                    .timelineReply, "entries: \(TimelinePayload.maximumEntries + 1), over the limit of \(TimelinePayload.maximumEntries)",
                    at: 1,
                    of: over.count))
    }

    // MARK: Varints

    @Test(
        "varint overflow and runaway varints",
        arguments: [
            (Array(repeating: 0xFF, count: 9) + [0x02], "request id: varint overflows 64 bits"),
            (Array(repeating: 0xFF, count: 10) + [0x01], "request id: varint overflows 64 bits"),
            (Array(repeating: 0x80, count: 10) + [0x01], "request id: varint overflows 64 bits"),
            (Array(repeating: 0x80, count: 32), "request id: varint overflows 64 bits"),
            ([0x80, 0x80], "request id: varint runs past the end of the payload")
        ] as [([UInt8], String)])
    func varints(_ bytes: [UInt8], _ reason: String) {
        #expect(
            Wire.error(.performUpdateRequest, payload: bytes)
                == Self.malformed(.performUpdateRequest, reason, at: 0, of: bytes.count))
    }

    @Test("a version number over 16 bits")
    func versionOver16Bits() {
        let payload = Wire.payload { w in
            w.writeVarint(UInt64(65_536))
            w.writeVarint(UInt64(0))
            w.write("")
            w.write(UInt8(0))
            w.writeVarint(0)
            w.writeVarint(0)
            w.write(false)
        }
        #expect(
            Wire.error(.hello, payload: payload)
                == Self.malformed(.hello, "major version: 65536 does not fit 16 bits", at: 0, of: payload.count))
    }

    // MARK: Counts

    @Test("an array count larger than the bytes left")
    func arrayCountTooLarge() {
        #expect(
            Wire.error(.hello, payload: [1, 0, 0, 0, 0xE8, 0x07, 0, 0])
                == Self.malformed(.hello, "widgets count: length 1000 exceeds the 2 bytes left", at: 4, of: 8))
        #expect(
            Wire.error(.timelineReply, payload: [1, 5, 0])
                == Self.malformed(.timelineReply, "entries count: length 5 exceeds the 1 bytes left", at: 1, of: 3))
        let hugeCount: [UInt8] = [1] + Array(repeating: 0xFF, count: 9) + [0x01, 0]
        #expect(
            Wire.error(.timelineReply, payload: hugeCount)
                == Self.malformed(
                    .timelineReply, "entries count: length 18446744073709551615 exceeds the 1 bytes left",
                    at: 1, of: 12))
    }

    @Test("a byte-array length larger than the bytes left")
    func byteCountTooLarge() {
        let entry = Wire.payload { w in
            w.writeVarint(UInt64(1))
            w.write(0.0 as Double)
            w.write(false)
            w.writeVarint(100)
            w.append(contentsOf: [0x7B, 0x7D])
            w.write(false)
        }
        #expect(
            Wire.error(.entryReply, payload: entry)
                == Self.malformed(.entryReply, "entry JSON: length 100 exceeds the 3 bytes left", at: 10, of: 14))
    }

    // MARK: Trailing bytes

    @Test("bytes after a complete message", arguments: Samples.all)
    func trailingBytes(_ message: Message) {
        let payload = Wire.payload(of: message)
        #expect(
            Wire.error(message.type, payload: payload + [0])
                == Self.malformed(message.type, "1 trailing bytes after the message", at: payload.count, of: payload.count + 1))
        #expect(
            Wire.error(message.type, payload: payload + [1, 2, 3])
                == Self.malformed(message.type, "3 trailing bytes after the message", at: payload.count, of: payload.count + 3))
    }
}

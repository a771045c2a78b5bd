import Foundation
import SandglassIPC
import Testing

@testable import SandglassHost

/// An entry's JSON in the event log: the extension's value, parsed and written again, on one
/// line, with nothing a terminal acts on and no field of the extension's making.
@Suite("Entry JSON in the log")
struct EntryJSONTests {
    @Test("valid JSON with line breaks between its tokens stays one line and the same value; a string's overrides are escaped")
    func oneLine() throws {
        let sent = "[1,\n\r\t{\"t\":0,\"event\":\"exited\"}\n,\"\u{202E}txt\u{85}\"]"
        let logged = validJSON(Array(sent.utf8))
        #expect(!logged.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E || $0.value == 0x85 }, "\(logged)")
        let value = try #require(try JSONSerialization.jsonObject(with: Data(logged.utf8)) as? [Any])
        #expect(value.count == 3)
        #expect(value[2] as? String == "\u{202E}txt\u{85}")
        #expect((value[1] as? [String: Any])?["event"] as? String == "exited")
    }

    @Test(
        "JSON in UTF-16 (which a parser detects without a byte-order mark), with one, or with a trailing comma is never written as sent: the line read back is the host's, with its own event and bundle"
    )
    func forgedLine() throws {
        // "A" in UTF-16LE, then bytes that, read as UTF-8, close the entry and forge fields.
        let forged = #""},"event":"invariant.violated","bundle":"victim","zz":{"a":""#
        let attacks: [[UInt8]] = [
            [0x22, 0x00, 0x41, 0x00] + Array(forged.utf8) + [0x22, 0x00],
            [0xFF, 0xFE, 0x22, 0x00, 0x41, 0x00, 0x22, 0x00],
            Array("[1,]".utf8),
            Array(#"{"a":1,}"#.utf8)
        ]
        for bytes in attacks {
            let entry = EntryPayload(date: 0, json: bytes, text: nil)
            let line = HostEvent(t: 1, name: "activation.end", fields: [("bundle", "com.example.own"), ("entry", .raw(entryJSON(entry)))])
                .jsonLine
            let read = try #require(HostEvent(jsonLine: line), "the line does not read back: \(line)")
            #expect(read.name == "activation.end", "\(line)")
            #expect(read.bundle == "com.example.own", "\(line)")
            #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any])
        }
    }

    @Test(
        "JSON nested 512 levels (what Foundation parses) is written as a string: its event's line reads back, where two levels more made the whole log unreadable; 64 levels stay JSON"
    )
    func deeplyNested() throws {
        for (levels, asJSON) in [(511, false), (512, false), (EntryLog.maximumDepth, true)] {
            let sent = String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
            let entry = EntryPayload(date: 0, json: Array(sent.utf8), text: nil)
            for fields: [(String, JSONValue)] in [
                [("bundle", "com.example.own"), ("entry", .raw(entryJSON(entry)))],
                [("bundle", "com.example.own"), ("entries", .array(EntryLog.timeline([entry]).json))]
            ] {
                let line = HostEvent(t: 1, name: "activation.end", fields: fields).jsonLine
                let read = try #require(HostEvent(jsonLine: line), "a line of \(levels) levels does not read back")
                #expect(read.bundle == "com.example.own")
                #expect(line.contains(#""["#) != asJSON, "\(levels) levels written \(asJSON ? "as a string" : "as JSON")")
            }
        }
    }

    @Test("valid JSON is written as the same value")
    func sameValue() throws {
        let sent = #"{"round":22,"id":9007199254740993,"players":[{"name":"Ada","points":51.5}],"live":true,"note":null}"#
        #expect(validJSON(Array(sent.utf8)).contains(#""id":9007199254740993"#), "a 64-bit integer stays exact")
        #expect(validJSON(Array(sent.utf8)).contains(#""live":true"#))
        let logged = try #require(try JSONSerialization.jsonObject(with: Data(validJSON(Array(sent.utf8)).utf8)) as? NSDictionary)
        #expect(logged == (try JSONSerialization.jsonObject(with: Data(sent.utf8)) as? NSDictionary))
    }

    @Test("an entry of 900 KB (its JSON and its text) takes at most 64 KiB of its event's line")
    func heavyEntry() {
        let json = Array(("[\"" + String(repeating: "j", count: 900_000) + "\"]").utf8)
        let entry = EntryPayload(date: 0, json: json, text: String(repeating: "t", count: 900_000))
        let logged = entryJSON(entry)
        #expect(logged.utf8.count <= EntryLog.entryBytes + 1024, "\(logged.utf8.count) bytes")
        #expect(logged.contains("left out"))
        // Text of control characters, each written as six bytes: counted as written.
        let controls = EntryPayload(date: 0, json: Array("{}".utf8), text: String(repeating: "\u{1}", count: 60_000))
        #expect(entryJSON(controls).utf8.count <= EntryLog.entryBytes + 1024, "\(entryJSON(controls).utf8.count) bytes")
    }

    @Test(
        "a timeline of 4,096 entries of 500 bytes each: its event carries entries and texts up to 64 KiB in all, the rest null and counted"
    )
    func heavyTimeline() {
        let entries = (0..<4096).map { n in
            EntryPayload(
                date: Double(n), json: Array(#"{"n":"\#(String(repeating: "x", count: 240))"}"#.utf8),
                text: String(repeating: "t", count: 250))
        }
        let (json, texts, leftOut) = EntryLog.timeline(entries)
        #expect(json.count == 4096 && texts.count == 4096)
        let bytes = JSONValue.array(json).serialized.utf8.count + JSONValue.array(texts).serialized.utf8.count
        #expect(bytes <= EntryLog.timelineBytes + 2 * 4096 * 8, "\(bytes) bytes (the rest: a null and a comma for each entry left out)")
        #expect(leftOut > 3500 && json[0] != .null && json[4095] == .null && texts[4095] == .null)
        #expect(EntryLog.timeline(Array(entries.prefix(10))).leftOut == 0)
    }

    @Test("what is not JSON is logged as a string")
    func notJSON() {
        #expect(validJSON(Array("{\n".utf8)) == "\"{\\n\"")
    }
}

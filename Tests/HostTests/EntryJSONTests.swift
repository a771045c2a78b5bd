import Foundation
import Testing

@testable import SandglassHost

/// An entry's JSON as the extension sent it, in the event log: one line, nothing a terminal acts on.
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

    @Test("what is not JSON is logged as a string")
    func notJSON() {
        #expect(validJSON(Array("{\n".utf8)) == "\"{\\n\"")
    }
}

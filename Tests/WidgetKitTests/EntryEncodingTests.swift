import SandglassIPC
import Testing

@testable import WidgetKit

@Suite("entry encoding")
struct EntryEncodingTests {
    @Test("Encodable entries: sorted keys, ISO 8601 dates, relevance mapped")
    func encodableEntry() throws {
        struct Entry: TimelineEntry, Codable {
            let date: Date
            let zeta: Int
            let alpha: String
            let link: String
            var relevance: TimelineEntryRelevance? { TimelineEntryRelevance(score: 2.5) }
        }
        let payload = try EntryEncoder.payload(
            for: Entry(date: referenceDate, zeta: 1, alpha: "a", link: "https://example.com/x"),
            text: "rendered"
        )
        #expect(
            String(decoding: payload.json, as: UTF8.self)
                == #"{"alpha":"a","date":"2025-06-15T15:06:40Z","link":"https://example.com/x","zeta":1}"#)
        #expect(payload.date == referenceDate.timeIntervalSince1970)
        #expect(payload.relevance == RelevancePayload(score: 2.5, duration: 0))
        #expect(payload.text == "rendered")
    }

    @Test("values that are not JSON objects are wrapped as {\"value\": …}")
    func wrapsNonObjects() throws {
        enum Mood: String, Codable { case happy }
        #expect(String(decoding: try EntryEncoder.json(for: Mood.happy), as: UTF8.self) == #"{"value":"happy"}"#)
        #expect(String(decoding: try EntryEncoder.json(for: [1, 2]), as: UTF8.self) == #"{"value":[1,2]}"#)
        #expect(String(decoding: try EntryEncoder.json(for: 3.5), as: UTF8.self) == #"{"value":3.5}"#)
        #expect(String(decoding: EntryEncoder.wrappedAsObject(Array(" {}".utf8)), as: UTF8.self) == " {}")
    }

    @Test("entries that are not Codable are recorded through Mirror")
    func mirroredEntry() throws {
        let context = TimelineProviderContext(family: .systemSmall, isPreview: false, displaySize: .zero)
        let entry = MirroredProvider().placeholder(in: context)
        let payload = try EntryEncoder.payload(for: entry)
        let text = String(decoding: payload.json, as: UTF8.self)
        let json = try jsonObject(payload.json)

        #expect(json["date"] as? String == "2025-06-15T15:06:40Z")
        #expect(json["title"] as? String == "Line \"one\"\nline two")
        #expect(json["count"] as? Int == 7)
        #expect(json["ratio"] as? Double == 0.5)
        #expect(json["isLive"] as? Bool == true)
        #expect(json["nickname"] as? String == "ace")
        #expect(json["missing"] is NSNull)
        #expect(json["medal"] as? String == "gold")
        #expect((json["special"] as? [String: Any])?["custom"] as? String == "wooden spoon")
        let players = try #require(json["players"] as? [[String: Any]])
        #expect(players.map { $0["name"] as? String } == ["Ada", "Grace"])
        #expect(players.map { $0["rating"] as? Double } == [1.5, 2])
        #expect(json["table"] as? [String: Int] == ["Ada": 3, "Grace": 1])
        #expect(json["link"] as? String == "https://example.com/board?week=3")
        let team = try #require(json["team"] as? [String: Any])
        #expect(team["name"] as? String == "Compilers")
        #expect(team["founded"] as? String == "2025-06-15T15:06:40Z")
        #expect(json["pair"] as? [String: Int] == ["wins": 3, "losses": 1])
        // Keys are written sorted, so the recording is stable.
        #expect(text.hasPrefix(#"{"count":7,"date":"#))
    }

    @Test("Mirror: cycles and odd values fall back to String(describing:)")
    func mirrorFallbacks() throws {
        final class Node {
            var next: Node?
        }
        let node = Node()
        node.next = node
        let json = try jsonObject(MirrorJSON.value(of: ["node": node, "nan": Double.nan, "tuple": (1, "a")] as [String: Any]).bytes)
        let first = try #require(json["node"] as? [String: Any])
        #expect(first["next"] is String)
        #expect(json["nan"] as? String == "nan")
        #expect((json["tuple"] as? [Any])?.count == 2)
        #expect(MirrorJSON.value(of: "\u{01}tab\there").bytes == Array(#""\u0001tab\there""#.utf8))
    }
}

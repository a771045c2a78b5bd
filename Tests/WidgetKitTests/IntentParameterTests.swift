import Foundation
@_spi(SandglassRuntime) import Intents
import Testing

/// Custom intents as written for Linux (`@INParameter` where Xcode writes `@NSManaged`): the
/// SDK sets their parameters from a widget's configuration (JSON) and says what did not apply.
@Suite("Intent parameters")
struct IntentParameterTests {
    final class Hero: INObject {}
    enum Size: Int, Codable { case unknown = 0, small = 1, large = 2 }

    final class HeroIntent: INIntent {
        @INParameter var hero: Hero?
        @INParameter var count: NSNumber?
        @INParameter var size: Size = .small
        @INParameter var tags: [String]?
        @INParameter var since: Date?
        @INParameter var note: String?
    }

    private func apply(_ json: String, to intent: INIntent) -> [String] {
        IntentConfigurationApplier.apply(Array(json.utf8), to: intent)
    }

    @Test("every kind of parameter is set from JSON; those not named keep their defaults")
    func applied() throws {
        let intent = HeroIntent()
        let problems = apply(
            #"{"hero": {"identifier": "spider", "displayString": "Spider"}, "count": 3, "size": 2, "tags": ["a", "b"], "since": "2026-01-02T03:04:05Z"}"#,
            to: intent)
        #expect(problems.isEmpty)
        #expect(intent.hero?.identifier == "spider" && intent.hero?.displayString == "Spider")
        #expect(intent.count?.intValue == 3)
        #expect(intent.size == .large)
        #expect(intent.tags == ["a", "b"])
        #expect(intent.since == Date(timeIntervalSince1970: 1_767_323_045))
        #expect(intent.note == nil)
        #expect(intent.parameters.keys.sorted() == ["count", "hero", "since", "size", "tags"])
    }

    @Test("an INObject by its identifier alone; a date in seconds since 1970; null clears an optional")
    func shorthand() {
        let intent = HeroIntent()
        intent.note = "x"
        #expect(apply(#"{"hero": "bat", "since": 86400, "note": null}"#, to: intent).isEmpty)
        #expect(intent.hero?.identifier == "bat" && intent.hero?.displayString == "bat")
        #expect(intent.since == Date(timeIntervalSince1970: 86_400))
        #expect(intent.note == nil)
        #expect(Hero(identifier: "bat", display: "x") == intent.hero.map { Hero(identifier: $0.identifier, display: "x") })
    }

    @Test("an unknown key or a value that does not fit is named; the default stays; not an object is refused")
    func problems() {
        let intent = HeroIntent()
        let problems = apply(#"{"heroes": "x", "size": "huge", "count": "three"}"#, to: intent)
        #expect(problems.count == 3)
        #expect(problems.contains { $0.contains("'heroes'") && $0.contains("count, hero, note, since, size, tags") })
        #expect(problems.contains { $0.contains("'size'") })
        #expect(problems.contains { $0.contains("'count'") && $0.contains("a number") })
        #expect(intent.size == .small && intent.count == nil)
        #expect(apply("[1]", to: intent).first?.contains("not a JSON object") == true)
        #expect(apply("", to: intent).isEmpty)
    }
}

import SandglassHost
import Testing

/// Explanations derived from event lists, as a live host and `sandglass explain --log` derive them.
@Suite("Explaining reloads")
struct WidgetExplanationTests {
    private func event(_ t: Double, _ name: String, _ fields: [(String, JSONValue)]) -> HostEvent {
        HostEvent(t: t, name: name, fields: [("bundle", "com.example.w"), ("kind", "K"), ("family", "systemSmall")] + fields)
    }

    private var added: [HostEvent] {
        [
            HostEvent(t: 0, name: "run.start", fields: [("epoch", 1_800_000_000.0), ("clock", "virtual")]),
            event(1, "widget.added", [("reloadsPerDay", 2)])
        ]
    }

    @Test("a kind an extension named with control characters is shown written out, never acted on")
    func printableKind() throws {
        let kind = "K\u{1B}]0;title\u{07}\nforged"
        let events = [
            HostEvent(t: 0, name: "run.start", fields: [("epoch", 1_800_000_000.0), ("clock", "virtual")]),
            HostEvent(t: 1, name: "widget.added", fields: [("bundle", "com.example.w"), ("kind", .string(kind)), ("family", "systemSmall")])
        ]
        let explanation = try #require(WidgetExplanation.explain(kind, in: events, now: 10).first)
        let text = explanation.rendered()
        #expect(text.hasPrefix("K\\u{1B}]0;title\\u{7}\\nforged · com.example.w · systemSmall"), "\(text)")
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    @Test("by its policy: the next reload date")
    func scheduled() throws {
        let events =
            added + [
                event(
                    2, "reload.requested",
                    [("reason", "initial"), ("charged", false), ("exempt", "widgetAdded"), ("remaining", 2), ("limit", 2)]),
                event(3, "timeline", [("policy", "after"), ("nextReload", 300_003.0)])
            ]
        let explanation = try #require(WidgetExplanation.explain("K", in: events, now: 10).first)
        #expect(explanation.status == .scheduled(at: 300_003, retry: false))
        #expect(explanation.statusText.contains("reloads by its timeline's policy at"))
        #expect(explanation.exemptInWindow == 1)
        #expect(explanation.history.count == 3)
    }

    @Test("budget exhausted until T, with the counts of the last 24 hours")
    func budget() throws {
        let events =
            added + [
                event(10, "reload.requested", [("reason", "policy"), ("charged", true), ("remaining", 1), ("limit", 2)]),
                event(11, "timeline", [("policy", "never"), ("nextReload", .null)]),
                event(20, "reload.requested", [("reason", "reloadTimelines"), ("charged", true), ("remaining", 0), ("limit", 2)]),
                event(21, "timeline", [("policy", "never"), ("nextReload", .null)]),
                event(
                    30, "reload.denied",
                    [("reason", "budgetExhausted"), ("requested", "reloadTimelines"), ("until", 86_400_010.0), ("used", 2), ("limit", 2)])
            ]
        let explanation = try #require(WidgetExplanation.explain("com.example.w/K/systemSmall", in: events, now: 40).first)
        #expect(explanation.status == .budgetExhausted(until: 86_400_010))
        #expect(explanation.chargedInWindow == 2)
        #expect(explanation.deniedInWindow == 1)
        #expect(explanation.statusText.contains("blocked: reload budget exhausted (2 of 2"))
        #expect(explanation.rendered().contains("2026-") || explanation.rendered().contains("2027-"), "dates from run.start's epoch")
        // A day later the same reloads are out of the window.
        let later = try #require(WidgetExplanation.explain("K", in: events, now: 90_000_000).first)
        #expect(later.chargedInWindow == 0)
    }

    @Test("a retry waiting for the extension's backoff is blocked by the backoff; a permanent failure blocks for good")
    func backoffAndFailure() throws {
        var events =
            added + [
                event(10, "reload.requested", [("reason", "initial"), ("charged", false), ("exempt", "widgetAdded")]),
                HostEvent(t: 1010, name: "backoff.scheduled", fields: [("bundle", "com.example.w"), ("failures", 3), ("until", 5010.0)]),
                event(1011, "reload.failed", [("outcome", "killed"), ("retryAt", 5010.0), ("backoff", true)])
            ]
        let inBackoff = try #require(WidgetExplanation.explain("K", in: events, now: 2000).first)
        #expect(inBackoff.status == .backoff(until: 5010, failures: 3))
        let afterBackoff = try #require(WidgetExplanation.explain("K", in: events, now: 6000).first)
        #expect(afterBackoff.status == .scheduled(at: 5010, retry: true))

        events.append(HostEvent(t: 7000, name: "extension.failedPermanently", fields: [("bundle", "com.example.w"), ("failures", 4)]))
        events.append(event(7001, "reload.failed", [("outcome", "killed"), ("retryAt", .null)]))
        let failed = try #require(WidgetExplanation.explain("K", in: events, now: 8000).first)
        #expect(failed.status == .failedPermanently(since: 7000))
        #expect(failed.statusText.contains("failed permanently"))
    }

    @Test("events read back from JSON lines explain the same (booleans stay booleans)")
    func readBack() throws {
        let events =
            added + [
                event(10, "reload.requested", [("reason", "policy"), ("charged", true), ("remaining", 1), ("limit", 2)]),
                event(
                    11, "reload.requested",
                    [("reason", "appIntent"), ("charged", false), ("exempt", "appIntent"), ("remaining", 1), ("limit", 2)]),
                event(12, "timeline", [("policy", "never"), ("nextReload", .null)])
            ]
        let parsed = events.compactMap { HostEvent(jsonLine: $0.jsonLine) }
        #expect(parsed.count == events.count)
        #expect(parsed[2]["charged"] == .bool(true))
        let live = try #require(WidgetExplanation.explain("K", in: events, now: 20).first)
        let read = try #require(WidgetExplanation.explain("K", in: parsed, now: 20).first)
        #expect(live.status == read.status)
        #expect(live.chargedInWindow == 1 && read.chargedInWindow == 1)
        #expect(read.exemptInWindow == 1)
        let ledger = ReloadLedgerEntry.entries(in: parsed)
        #expect(ledger.map(\.decision) == [.charged, .exempt])
        #expect(ledger[1].exemption == .appIntent)
    }
}

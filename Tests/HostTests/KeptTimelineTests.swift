import SandglassIPC
import Testing

@testable import SandglassHost

/// What a widget instance keeps of its last timeline: bounded, whatever the extension replies.
@Suite("Kept timelines")
struct KeptTimelineTests {
    @Test(
        "a timeline of 4,096 entries of 1 KiB is kept to its first 64 KiB; a small one whole; neither with views; a first entry past it alone by its date"
    )
    func bounded() {
        let entries = (0..<TimelinePayload.maximumEntries).map {
            EntryPayload(date: Double($0), json: [UInt8](repeating: 0x20, count: 1024), text: "entry \($0)")
        }
        let kept = TimelinePayload(entries: entries, policy: .never).kept
        let bytes = kept.entries.reduce(0) { $0 + $1.json.count + ($1.text?.utf8.count ?? 0) }
        #expect(bytes <= EntryLog.timelineBytes, "\(kept.entries.count) entries, \(bytes) bytes kept")
        #expect(kept.entries.count > 32 && kept.entries.first == entries.first && kept.policy == .never)

        let small = TimelinePayload(entries: Array(entries.prefix(3)), policy: .after(60))
        #expect(small.kept == small)
        var drawn = small
        drawn.entries[0].view = ViewRendering(
            light: ViewTree(width: 170, height: 170, cornerRadius: 22, family: "systemSmall", nodes: []), nanoseconds: 1)
        #expect(drawn.kept == small, "a view was kept")
        // One entry past the budget alone: its date stays, its data goes.
        let huge = TimelinePayload(
            entries: [EntryPayload(date: 7, json: [UInt8](repeating: 0x20, count: 1 << 20), text: "huge")], policy: .atEnd
        ).kept
        #expect(huge.entries.count == 1 && huge.entries[0].date == 7 && huge.entries[0].json.isEmpty && huge.entries[0].text == nil)
    }
}

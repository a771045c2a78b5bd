import SandglassIPC
import Testing

@testable import SandglassHost

/// What a widget instance keeps of its last timeline: bounded, whatever the extension replies.
@Suite("Kept timelines")
struct KeptTimelineTests {
    @Test("a timeline of 4,096 entries of 1 KiB is kept to its first 64 KiB; a small one whole; neither with views")
    func bounded() {
        let entries = (0..<TimelinePayload.maximumEntries).map {
            EntryPayload(date: Double($0), json: [UInt8](repeating: 0x20, count: 1024), text: "entry \($0)")
        }
        let kept = TimelinePayload(entries: entries, policy: .never).kept
        let bytes = kept.entries.reduce(0) { $0 + $1.json.count + ($1.text?.utf8.count ?? 0) }
        #expect(bytes <= TimelinePayload.keptBytes, "\(kept.entries.count) entries, \(bytes) bytes kept")
        #expect(kept.entries.count > 32 && kept.entries.first == entries.first && kept.policy == .never)

        let small = TimelinePayload(entries: Array(entries.prefix(3)), policy: .after(60))
        #expect(small.kept == small)
        var drawn = small
        drawn.entries[0].view = ViewRendering(
            light: ViewTree(width: 170, height: 170, cornerRadius: 22, family: "systemSmall", nodes: []), nanoseconds: 1)
        #expect(drawn.kept == small, "a view was kept")
    }
}

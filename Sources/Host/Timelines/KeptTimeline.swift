import SandglassIPC

extension TimelinePayload {
    /// The bytes of entries' JSON and texts a widget instance keeps of its last timeline
    /// (each entry counted with 64 more). A reply may carry 1 MiB and an extension declare 128
    /// widget instances: kept whole, 128 MiB of the host's memory for each extension, four
    /// times the extension's own budget, for as long as the host runs.
    static let keptBytes = 64 << 10

    /// The timeline as ``WidgetInstance/timeline`` keeps it: its entries without their views
    /// (the `timeline` event has them, and each is many times its size on the wire once
    /// decoded), the first of them while they fit in ``keptBytes``; its policy.
    var kept: TimelinePayload {
        var total = 0
        var entries: [EntryPayload] = []
        for entry in self.entries {
            total += entry.json.count + (entry.text?.utf8.count ?? 0) + 64
            if total > Self.keptBytes { break }
            var kept = entry
            kept.view = nil
            entries.append(kept)
        }
        return TimelinePayload(entries: entries, policy: policy)
    }
}

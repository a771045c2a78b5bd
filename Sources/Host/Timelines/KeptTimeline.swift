import SandglassIPC

extension TimelinePayload {
    /// The timeline as ``WidgetInstance/timeline`` keeps it: its entries without their views,
    /// the first of them while their JSON and texts fit in what the `timeline` event carries of
    /// them (``EntryLog/timelineBytes``, each entry counted with 64 bytes more), and at least the
    /// first, with its date and relevance; its policy. A reply may carry 1 MiB and an extension
    /// declare 128 widget instances: kept whole, that was 128 MiB of the host's memory for each
    /// extension, four times the extension's own budget, for as long as the host runs.
    var kept: TimelinePayload {
        var total = 0
        var entries: [EntryPayload] = []
        for entry in self.entries {
            var kept = entry
            kept.view = nil
            total += entry.json.count + (entry.text?.utf8.count ?? 0) + 64
            if total > EntryLog.timelineBytes {
                if entries.isEmpty {
                    kept.json = []
                    kept.text = nil
                    entries.append(kept)
                }
                break
            }
            entries.append(kept)
        }
        return TimelinePayload(entries: entries, policy: policy)
    }
}

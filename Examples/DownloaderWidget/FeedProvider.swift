//
//  FeedProvider.swift
//  DownloaderWidget
//

import WidgetKit

struct FeedEntry: TimelineEntry, Codable {
    let date: Date
    /// Bytes of the last download, nil before the first one arrived.
    let bytes: Int?
    let downloadedAt: Date?

    var summary: String {
        guard let bytes = bytes else { return "Waiting for the first download" }
        return "\(bytes) bytes downloaded"
    }
}

struct FeedProvider: TimelineProvider {
    func placeholder(in context: Context) -> FeedEntry {
        FeedEntry(date: Date(), bytes: nil, downloadedAt: nil)
    }

    func getSnapshot(in context: Context, completion: @escaping (FeedEntry) -> Void) {
        completion(FeedCache.shared.entry())
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<FeedEntry>) -> Void) {
        let timeline = Timeline(
            entries: [FeedCache.shared.entry()],
            policy: .after(Date().addingTimeInterval(15 * 60))
        )
        // Fresh data comes back through the background session, not through this call: the
        // extension may be halted long before a download ends.
        guard FeedCache.shared.isStale, let url = FeedDownloader.feedURL else {
            completion(timeline)
            return
        }
        FeedDownloader.shared.downloadIfIdle(from: url) {
            completion(timeline)
        }
    }
}

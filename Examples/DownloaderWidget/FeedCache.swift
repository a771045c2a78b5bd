//
//  FeedCache.swift
//  DownloaderWidget
//

import Foundation

/// The last downloaded feed, in the container's Caches directory.
final class FeedCache {
    static let shared = FeedCache()

    /// How long a download counts as fresh: no new one is started before.
    let freshness: TimeInterval = 15 * 60

    var fileURL: URL {
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
        return caches.appendingPathComponent("feed.bin")
    }

    /// Moves a finished download into the cache, replacing the previous one.
    func store(downloadAt location: URL) throws {
        let destination = fileURL
        try FileManager.default.createDirectory(
            at: destination.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        if FileManager.default.fileExists(atPath: destination.path) {
            try FileManager.default.removeItem(at: destination)
        }
        try FileManager.default.moveItem(at: location, to: destination)
    }

    func entry() -> FeedEntry {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: fileURL.path) else {
            return FeedEntry(date: Date(), bytes: nil, downloadedAt: nil)
        }
        let bytes = (attributes[.size] as? NSNumber)?.intValue
        return FeedEntry(date: Date(), bytes: bytes, downloadedAt: attributes[.modificationDate] as? Date)
    }

    var isStale: Bool {
        guard let downloadedAt = entry().downloadedAt else { return true }
        return Date().timeIntervalSince(downloadedAt) > freshness
    }
}

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
        // The download's date is now, by this process's clock: the file's own time is the one
        // it was written at, which on a virtual clock (Sandglass runs days in seconds, and the
        // extension's Date() follows) lags behind Date() — every feed would look stale at once,
        // and each reload would start another download.
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: destination.path)
    }

    func entry() -> FeedEntry {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: fileURL.path) else {
            return FeedEntry(date: Date(), bytes: nil, downloadedAt: nil)
        }
        let bytes = (attributes[.size] as? NSNumber)?.intValue
        return FeedEntry(date: Date(), bytes: bytes, downloadedAt: attributes[.modificationDate] as? Date)
    }

    /// No feed yet, an old one, or one from the future (the clock was set back since): download.
    var isStale: Bool {
        guard let downloadedAt = entry().downloadedAt else { return true }
        let age = Date().timeIntervalSince(downloadedAt)
        return age < 0 || age > freshness
    }
}

import Foundation
import SandglassEmbedded
import SwiftUI
import Synchronization
import WidgetKit
import os

/// Embedded copy of `Examples/DownloaderWidget` (Downloader.app, and both extensions of
/// Conflict.app): `getTimeline` answers from the cache and starts a background download unless
/// one is on its way; `onBackgroundURLSessionEvents` stores the completion and re-creates the
/// session; the delegate moves the file into the cache, and `urlSessionDidFinishEvents` reloads
/// the timeline and calls the completion.
///
/// The example keeps its sessions in `FeedDownloader.shared`, one per process. Embedded, every
/// instance shares the test's process, so the downloader is kept per instance
/// (``EmbeddedExtension/processIdentifier``: a relaunched instance starts without the session of
/// the one before, as a new process does) and made lazily in the provider or the handler, where
/// the instance is known; its cache is in the instance's container. The copy logs through
/// `Logger` where the example prints (an embedded instance has no standard output of its own),
/// reads the run clock through ``EmbeddedExtension``, and reloads from a `Task` on the main actor
/// where the example dispatches to the main queue: the task keeps the runtime the delegate call
/// is bound to, which the main queue would not know.
extension BackendApp {
    /// Downloader.app: one widget downloading `SANDGLASS_FIXTURE_URL` in a background session.
    static let downloader = BackendApp(name: "Downloader.app") {
        ["com.example.downloader.widget": .init(widget: EmbeddedDownloaderWidget.self)]
    }

    /// Conflict.app: the Downloader twice, as two extensions of one app claiming the same
    /// session identifier.
    static let conflict = BackendApp(name: "Conflict.app") {
        [
            "com.example.conflict.widget": .init(widget: EmbeddedDownloaderWidget.self),
            "com.example.conflict.second": .init(widget: EmbeddedDownloaderWidget.self)
        ]
    }
}

struct EmbeddedFeedEntry: TimelineEntry, Codable {
    let date: Date
    /// Bytes of the last download, nil before the first one arrived.
    let bytes: Int?
    let downloadedAt: Date?

    var summary: String {
        guard let bytes = bytes else { return "Waiting for the first download" }
        return "\(bytes) bytes downloaded"
    }
}

/// The last downloaded feed, in the container's Caches directory (the example's `FeedCache`).
struct EmbeddedFeedCache: Sendable {
    /// How long a download counts as fresh: no new one is started before.
    let freshness: TimeInterval = 15 * 60
    let container: String
    /// The run clock of the instance.
    let clock: @Sendable () -> Date

    var fileURL: URL {
        URL(fileURLWithPath: container).appendingPathComponent("Library/Caches/feed.bin")
    }

    /// Moves a finished download into the cache, replacing the previous one; its date is now on
    /// the run clock (the file's own is the real time it was written at).
    func store(downloadAt location: URL) throws {
        let destination = fileURL
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        if FileManager.default.fileExists(atPath: destination.path) {
            try FileManager.default.removeItem(at: destination)
        }
        try FileManager.default.moveItem(at: location, to: destination)
        try FileManager.default.setAttributes([.modificationDate: clock()], ofItemAtPath: destination.path)
    }

    func entry() -> EmbeddedFeedEntry {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: fileURL.path) else {
            return EmbeddedFeedEntry(date: clock(), bytes: nil, downloadedAt: nil)
        }
        let bytes = (attributes[.size] as? NSNumber)?.intValue
        return EmbeddedFeedEntry(date: clock(), bytes: bytes, downloadedAt: attributes[.modificationDate] as? Date)
    }

    /// No feed yet, an old one, or one from the future (the clock was set back since): download.
    var isStale: Bool {
        guard let downloadedAt = entry().downloadedAt else { return true }
        let age = clock().timeIntervalSince(downloadedAt)
        return age < 0 || age > freshness
    }
}

/// The background sessions of one instance (the example's `FeedDownloader`): made lazily and
/// kept by identifier, in one place, for `getTimeline` and `onBackgroundURLSessionEvents`.
final class EmbeddedFeedDownloader: NSObject, URLSessionDownloadDelegate, @unchecked Sendable {
    static let sessionIdentifier = "com.example.downloader.feed"

    /// The downloaders by instance (pid). They stay for the life of the test process: an
    /// embedded pid is never given twice, so an ended instance's is never found again.
    private static let byInstance = Mutex<[Int32: EmbeddedFeedDownloader]>([:])

    /// The downloader of the instance whose code calls (provider, handler), made on first use.
    static var current: EmbeddedFeedDownloader? {
        guard let pid = EmbeddedExtension.processIdentifier, let container = EmbeddedExtension.container else { return nil }
        let clock = EmbeddedExtension.clock
        let environment = { (name: String) in EmbeddedExtension.environment(name) }
        let resourceTimeout = environment("SANDGLASS_RESOURCE_TIMEOUT").flatMap(Double.init)
        return byInstance.withLock { downloaders in
            if let downloader = downloaders[pid] { return downloader }
            let downloader = EmbeddedFeedDownloader(
                cache: EmbeddedFeedCache(container: container, clock: clock), resourceTimeout: resourceTimeout)
            downloaders[pid] = downloader
            return downloader
        }
    }

    /// The feed to download, in the instance's code; the host's tests point it at their fixture server.
    static var feedURL: URL? {
        EmbeddedExtension.environment("SANDGLASS_FIXTURE_URL").flatMap(URL.init(string:))
    }

    /// Routes a finished download back to what asked for it. Kept in `taskDescription`, which
    /// survives the instance being ended and relaunched for the download.
    struct Token: Codable {
        static let currentVersion = 1

        var version = Token.currentVersion
        var feed: String
        var requested: Date

        init(feed: String, requested: Date) {
            self.feed = feed
            self.requested = requested
        }

        init?(taskDescription: String?) {
            guard let data = taskDescription?.data(using: .utf8),
                let token = try? JSONDecoder().decode(Token.self, from: data),
                token.version == Token.currentVersion
            else {
                return nil
            }
            self = token
        }

        func encoded() -> String? {
            (try? JSONEncoder().encode(self)).flatMap { String(data: $0, encoding: .utf8) }
        }
    }

    let cache: EmbeddedFeedCache
    private let resourceTimeout: Double?
    private let logger = Logger(subsystem: "com.example.downloader.widget", category: "feed")
    private let lock = NSLock()
    private var sessions: [String: URLSession] = [:]
    private var completionHandlers: [String: () -> Void] = [:]

    private init(cache: EmbeddedFeedCache, resourceTimeout: Double?) {
        self.cache = cache
        self.resourceTimeout = resourceTimeout
    }

    /// The session for `identifier`, created on first use (in the instance's code: it belongs
    /// to the instance's runtime).
    func session(for identifier: String) -> URLSession {
        lock.lock()
        defer { lock.unlock() }
        if let session = sessions[identifier] {
            return session
        }
        let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
        configuration.sessionSendsLaunchEvents = true
        configuration.isDiscretionary = false
        // Tests shorten the task's lifetime (retries included) to see the resource timeout.
        if let resourceTimeout {
            configuration.timeoutIntervalForResource = resourceTimeout
        }
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        sessions[identifier] = session
        return session
    }

    /// Starts a download of `url` unless one is already on its way, then calls `started`.
    func downloadIfIdle(from url: URL, started: @escaping @Sendable () -> Void) {
        let session = session(for: Self.sessionIdentifier)
        let clock = cache.clock
        session.getAllTasks { tasks in
            // A task created just before the instance (or the whole host) died may never have
            // been resumed: it waits, suspended, in the session.
            for task in tasks where task.state == .suspended { task.resume() }
            if tasks.isEmpty {
                let task = session.downloadTask(with: url)
                task.taskDescription = Token(feed: url.lastPathComponent, requested: clock()).encoded()
                task.earliestBeginDate = clock()
                task.countOfBytesClientExpectsToSend = 200
                task.countOfBytesClientExpectsToReceive = 64 * 1024
                task.resume()
            }
            started()
        }
    }

    /// Stores the completion of `onBackgroundURLSessionEvents` and re-creates the session, so
    /// that its events are delivered. With `SANDGLASS_FORGETFUL_HANDLER` set (tests only), the
    /// pitfall instead: the completion called at once, the session never re-created.
    func handleEvents(for identifier: String, completion: @escaping () -> Void) {
        if EmbeddedExtension.environment("SANDGLASS_FORGETFUL_HANDLER") != nil {
            completion()
            return
        }
        lock.lock()
        completionHandlers[identifier] = completion
        lock.unlock()
        _ = session(for: identifier)
    }

    // MARK: URLSessionDownloadDelegate

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        // The file is deleted when this method returns: move it now.
        if let response = downloadTask.response as? HTTPURLResponse, !(200..<300).contains(response.statusCode) {
            logger.log("feed download failed: HTTP \(response.statusCode)")
            return
        }
        let token = Token(taskDescription: downloadTask.taskDescription)
        do {
            try cache.store(downloadAt: location)
            let message =
                "feed '\(token?.feed ?? "?")' requested \(token?.requested.description ?? "?") stored: \(downloadTask.countOfBytesReceived) bytes"
            logger.log("\(message, privacy: .public)")
        } catch {
            logger.log("could not store the feed: \(String(describing: error), privacy: .public)")
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error = error {
            logger.log("feed download failed: \(error.localizedDescription, privacy: .public)")
        }
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        guard let identifier = session.configuration.identifier else { return }
        Task { @MainActor in
            WidgetCenter.shared.reloadTimelines(ofKind: "Downloader")
            let completion = self.lock.withLock { self.completionHandlers.removeValue(forKey: identifier) }
            completion?()
        }
    }
}

struct EmbeddedFeedProvider: TimelineProvider {
    func placeholder(in context: Context) -> EmbeddedFeedEntry {
        EmbeddedFeedEntry(date: EmbeddedExtension.now, bytes: nil, downloadedAt: nil)
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (EmbeddedFeedEntry) -> Void) {
        completion(EmbeddedFeedDownloader.current?.cache.entry() ?? placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<EmbeddedFeedEntry>) -> Void) {
        guard let downloader = EmbeddedFeedDownloader.current else {
            completion(Timeline(entries: [placeholder(in: context)], policy: .never))
            return
        }
        let cache = downloader.cache
        let entry = cache.entry()
        let next = cache.clock().addingTimeInterval(15 * 60)
        // Fresh data comes back through the background session, not through this call: the
        // instance may be halted long before a download ends.
        guard cache.isStale, let url = EmbeddedFeedDownloader.feedURL else {
            completion(Timeline(entries: [entry], policy: .after(next)))
            return
        }
        downloader.downloadIfIdle(from: url) {
            completion(Timeline(entries: [entry], policy: .after(next)))
        }
    }
}

struct EmbeddedDownloaderWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Downloader", provider: EmbeddedFeedProvider()) { entry in
            Text(entry.summary)
                .font(.headline)
                .multilineTextAlignment(.center)
                .containerBackground(for: .widget) {
                    LinearGradient(colors: [.teal, .blue], startPoint: .top, endPoint: .bottom)
                }
                .foregroundStyle(.white)
        }
        .configurationDisplayName("Feed")
        .description("The size of the last feed download.")
        .supportedFamilies([.systemSmall, .systemMedium])
        .onBackgroundURLSessionEvents(matching: EmbeddedFeedDownloader.sessionIdentifier) { identifier, completion in
            // Relaunched (or woken) for the session's events: store the completion and make sure
            // the session exists again, so its delegate receives them.
            EmbeddedFeedDownloader.current?.handleEvents(for: identifier, completion: completion)
        }
    }
}

//
//  FeedDownloader.swift
//  DownloaderWidget
//

import Foundation
import WidgetKit

/// Owns the widget's background `URLSession`s.
///
/// Sessions are created lazily and cached by identifier, in one place, as Apple advises: the
/// same lookup serves `getTimeline` when it starts a download and `onBackgroundURLSessionEvents`
/// after the system relaunched the extension for the download's events — whether the extension
/// kept running, was suspended, or was terminated in between.
///
/// ```swift
/// let session = FeedDownloader.shared.session(for: FeedDownloader.sessionIdentifier)
/// ```
///
/// A lock-guarded class rather than an actor: the events handler and the session's delegate
/// queue both need answers synchronously.
final class FeedDownloader: NSObject, URLSessionDownloadDelegate, @unchecked Sendable {
    static let sessionIdentifier = "com.example.downloader.feed"
    static let shared = FeedDownloader()

    /// The feed to download; the host's tests point it at their fixture server.
    static var feedURL: URL? {
        ProcessInfo.processInfo.environment["SANDGLASS_FIXTURE_URL"].flatMap(URL.init(string:))
    }

    /// Routes a finished download back to what asked for it. Kept in `taskDescription`, which
    /// survives the process being terminated and relaunched for the download.
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

    private let lock = NSLock()
    private var sessions: [String: URLSession] = [:]
    private var completionHandlers: [String: () -> Void] = [:]

    /// The session for `identifier`, created on first use.
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
        if let seconds = ProcessInfo.processInfo.environment["SANDGLASS_RESOURCE_TIMEOUT"].flatMap(Double.init) {
            configuration.timeoutIntervalForResource = seconds
        }
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        sessions[identifier] = session
        return session
    }

    /// Starts a download of `url` unless one is already on its way, then calls `started`.
    func downloadIfIdle(from url: URL, started: @escaping () -> Void) {
        let session = session(for: Self.sessionIdentifier)
        session.getAllTasks { tasks in
            // A task created just before the extension (or the whole system) died may never
            // have been resumed: it waits, suspended, in the session.
            for task in tasks where task.state == .suspended { task.resume() }
            if tasks.isEmpty {
                let task = session.downloadTask(with: url)
                task.taskDescription = Token(feed: url.lastPathComponent, requested: Date()).encoded()
                task.earliestBeginDate = Date()
                task.countOfBytesClientExpectsToSend = 200
                task.countOfBytesClientExpectsToReceive = 64 * 1024
                task.resume()
            }
            started()
        }
    }

    /// Stores the completion of `onBackgroundURLSessionEvents` and recreates the session, so
    /// that its events are delivered.
    func handleEvents(for identifier: String, completion: @escaping () -> Void) {
        lock.lock()
        completionHandlers[identifier] = completion
        lock.unlock()
        _ = session(for: identifier)
    }

    // MARK: URLSessionDownloadDelegate

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        // The file is deleted when this method returns: move it now.
        if let response = downloadTask.response as? HTTPURLResponse, !(200..<300).contains(response.statusCode) {
            print("feed download failed: HTTP \(response.statusCode)")
            return
        }
        let token = Token(taskDescription: downloadTask.taskDescription)
        do {
            try FeedCache.shared.store(downloadAt: location)
            print(
                "feed '\(token?.feed ?? "?")' requested \(token?.requested.description ?? "?") stored: \(downloadTask.countOfBytesReceived) bytes"
            )
        } catch {
            print("could not store the feed: \(error)")
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        if let error = error {
            print("feed download failed: \(error.localizedDescription)")
        }
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        guard let identifier = session.configuration.identifier else { return }
        DispatchQueue.main.async {
            WidgetCenter.shared.reloadTimelines(ofKind: "Downloader")
            self.lock.lock()
            let completion = self.completionHandlers.removeValue(forKey: identifier)
            self.lock.unlock()
            completion?()
        }
    }
}

/// Session-level events: the session became invalid, and — for background sessions — every
/// event the system had queued was delivered.
///
/// Every method is optional, as on Apple platforms; the delegate runs on the session's
/// `delegateQueue`. A class conforms the usual way:
///
/// ```swift
/// final class Downloader: NSObject, URLSessionDownloadDelegate, @unchecked Sendable { … }
/// ```
@preconcurrency
public protocol URLSessionDelegate: NSObjectProtocol, Sendable {
    /// The session was invalidated: `error` is `nil` after `finishTasksAndInvalidate()` or
    /// `invalidateAndCancel()`, a `URLError` otherwise (`.backgroundSessionInUseByAnotherProcess`
    /// when another process holds the identifier).
    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?)

    /// Every event queued for this background session was delivered: reload timelines and call
    /// the completion handler stored from `onBackgroundURLSessionEvents` (on the main queue).
    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession)
}

extension URLSessionDelegate {
    /// Does nothing.
    public func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {}

    /// Does nothing.
    public func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {}
}

/// Task-level events common to every kind of task.
@preconcurrency
public protocol URLSessionTaskDelegate: URLSessionDelegate {
    /// The task finished. `error` is `nil` on success and carries only client-side failures
    /// (a 500 is a response: inspect `task.response`).
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?)
}

extension URLSessionTaskDelegate {
    /// Does nothing.
    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {}
}

/// Events of data tasks: the body as it arrives.
@preconcurrency
public protocol URLSessionDataDelegate: URLSessionTaskDelegate {
    /// Bytes of the body arrived (in order; concatenate them).
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data)
}

extension URLSessionDataDelegate {
    /// Does nothing.
    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {}
}

/// Events of download tasks: progress, and the finished file.
@preconcurrency
public protocol URLSessionDownloadDelegate: URLSessionTaskDelegate {
    /// The download finished into the temporary file at `location`, which is deleted when this
    /// method returns: move it, or open it for reading, before returning.
    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL)

    /// Progress: `bytesWritten` since the last call, `totalBytesWritten` so far, and the expected
    /// total (`NSURLSessionTransferSizeUnknown` when the server did not say).
    func urlSession(
        _ session: URLSession,
        downloadTask: URLSessionDownloadTask,
        didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64,
        totalBytesExpectedToWrite: Int64
    )
}

extension URLSessionDownloadDelegate {
    /// Does nothing.
    public func urlSession(
        _ session: URLSession,
        downloadTask: URLSessionDownloadTask,
        didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64,
        totalBytesExpectedToWrite: Int64
    ) {}
}

/// The size of a transfer whose length is not known: -1.
public let NSURLSessionTransferSizeUnknown: Int64 = -1

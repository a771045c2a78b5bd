import Dispatch
import SandglassIPC

/// The async forms of the inline session's requests. Each creates a task, resumes it, and
/// cancels it when the calling `Task` is cancelled (throwing `URLError.cancelled`). Not in
/// background sessions: as on Apple platforms, that stops the process.
extension URLSession {
    /// The body and response for `url`.
    ///
    /// ```swift
    /// let (data, response) = try await URLSession.shared.data(from: url)
    /// ```
    ///
    /// `delegate` is accepted for source compatibility; the host handles redirects and
    /// authentication itself, so it is not called.
    @concurrent public func data(from url: URL, delegate: (any URLSessionTaskDelegate)? = nil) async throws -> (Data, URLResponse) {
        try await data(for: URLRequest(url: url), delegate: delegate)
    }

    /// The body and response for `request`.
    @concurrent public func data(for request: URLRequest, delegate: (any URLSessionTaskDelegate)? = nil) async throws -> (Data, URLResponse)
    {
        refuseCompletionHandler("data(for:)")
        let task = adopt(URLSessionDataTask(session: self, kind: .data, request: request), .delegate)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                task.await(.data(continuation))
                Self.resumeOffTheCooperativePool(task)
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// The body of `url` in a file, and the response. The file is yours: move or delete it.
    @concurrent public func download(from url: URL, delegate: (any URLSessionTaskDelegate)? = nil) async throws -> (URL, URLResponse) {
        try await download(for: URLRequest(url: url), delegate: delegate)
    }

    /// The body of `request` in a file, and the response. The file is yours: move or delete it.
    @concurrent public func download(
        for request: URLRequest, delegate: (any URLSessionTaskDelegate)? = nil
    ) async throws -> (URL, URLResponse) {
        refuseCompletionHandler("download(for:)")
        let task = adopt(URLSessionDownloadTask(session: self, kind: .download, request: request), .delegate)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                task.await(.download(continuation))
                Self.resumeOffTheCooperativePool(task)
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// Resumes `task` on a thread of its own, not the caller's. `resume()` registers the task with
    /// the host and waits for its reply, blocking the thread; an async caller is on Swift's
    /// cooperative pool, as wide as the machine has cores, and where the host's reply needs that
    /// pool (a host in the same process: the package's in-process tests) a few such waits at once
    /// would hold every thread of it. The task keeps the runtime it was made in, so it registers
    /// with the same host from any thread.
    static func resumeOffTheCooperativePool(_ task: URLSessionTask) {
        DispatchQueue.global().async { task.resume() }
    }
}

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
                task.resume()
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
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }
}

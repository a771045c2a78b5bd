import SandglassIPC

// Conversions between the SDK's networking types and the IPC payloads the host reads and writes.

extension URLRequest {
    /// The request as the host performs it, with the session's additional header fields
    /// (the request's own fields win) and its timeout (the session's when the request kept
    /// the default of 60 seconds).
    func payload(in configuration: URLSessionConfiguration) -> HTTPRequestPayload {
        var fields = HTTPHeaderFields(headerFields)
        for field in configuration.additionalHeaderFields where fields.value(for: field.name) == nil {
            fields.set(field.value, for: field.name)
        }
        let timeout =
            timeoutInterval == URLRequest.defaultTimeoutInterval
            ? configuration.timeoutIntervalForRequest
            : timeoutInterval
        return HTTPRequestPayload(
            url: url?.absoluteString ?? "",
            method: httpMethod ?? "GET",
            headers: fields.fields.map { HeaderField($0.name, $0.value) },
            body: httpBody.map { [UInt8]($0) },
            timeout: timeout
        )
    }

    /// The request the host reports for a task it holds.
    init?(_ payload: HTTPRequestPayload) {
        guard let url = URL(string: payload.url) else { return nil }
        self.init(url: url, timeoutInterval: payload.timeout > 0 ? payload.timeout : URLRequest.defaultTimeoutInterval)
        httpMethod = payload.method
        for header in payload.headers {
            addValue(header.value, forHTTPHeaderField: header.name)
        }
        httpBody = payload.body.map { Data($0) }
    }
}

extension HTTPURLResponse {
    /// The response the host received.
    convenience init(_ payload: HTTPResponsePayload) {
        self.init(
            url: URL(string: payload.url),
            statusCode: payload.statusCode,
            fields: payload.headers.map { HTTPHeaderFields.Field(name: $0.name, value: $0.value) },
            expectedContentLength: payload.expectedContentLength
        )
    }
}

extension TaskErrorPayload {
    /// The error a task reports: a `URLError` in `NSURLErrorDomain`, an `NSError` otherwise.
    func error(failingURL url: URL?) -> any Error {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let url {
            userInfo[NSURLErrorFailingURLErrorKey] = url
        }
        guard domain == NSURLErrorDomain else {
            return NSError(domain: domain, code: code, userInfo: userInfo)
        }
        return URLError(URLError.Code(rawValue: code) ?? .unknown, userInfo: userInfo)
    }
}

extension URLSessionTask.State {
    init(_ state: TaskState) {
        switch state {
        case .running: self = .running
        case .suspended: self = .suspended
        case .canceling: self = .canceling
        case .completed: self = .completed
        }
    }
}

/// A `URLError` with a description, for failures the SDK reports itself.
func urlError(_ code: URLError.Code, _ message: String, url: URL? = nil) -> URLError {
    TaskErrorPayload(code: code.rawValue, message: message).error(failingURL: url) as! URLError
}

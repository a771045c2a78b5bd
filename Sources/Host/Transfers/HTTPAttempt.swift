import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SandglassIPC

/// One HTTP attempt, the body streamed to `sink` as it arrives. A download resumes with a
/// `Range` request when it has a partial body and a validator (ETag or Last-Modified) from the
/// server; a `206` appends, a `200` starts over.
struct HTTPAttempt: Sendable {
    /// Where the body goes, chunk by chunk.
    protocol Sink: Sendable {
        /// The response arrived; `resumed` is true when it continues a partial body.
        func begin(_ response: HTTPResponsePayload, resumed: Bool) async throws
        func write(_ bytes: ByteBuffer) async throws
    }

    enum Result: Sendable {
        /// The whole body arrived.
        case completed(HTTPResponsePayload, validator: String?)
        /// The attempt failed; `transient` failures are retried.
        case failed(TaskErrorPayload, transient: Bool, response: HTTPResponsePayload?, validator: String?)
    }

    let client: HTTPClient
    let request: HTTPRequestPayload
    /// Bytes already on disk from earlier attempts (0 for none).
    let resumeFrom: Int64
    let validator: String?

    func run(into sink: some Sink) async -> Result {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for header in request.headers { outgoing.headers.add(name: header.name, value: header.value) }
        if let body = request.body { outgoing.body = .bytes(body) }
        let resuming = resumeFrom > 0 && validator != nil
        if resuming, let validator {
            outgoing.headers.replaceOrAdd(name: "Range", value: "bytes=\(resumeFrom)-")
            outgoing.headers.replaceOrAdd(name: "If-Range", value: validator)
        }
        var payload: HTTPResponsePayload?
        var newValidator = validator
        do {
            let response = try await client.execute(outgoing, timeout: .hours(24 * 7))
            let resumed = resuming && response.status == .partialContent
            let headers = response.headers.map { HeaderField($0.name, $0.value) }
            var length = Int64(response.headers.first(name: "Content-Length") ?? "") ?? -1
            if resumed, length >= 0 { length += resumeFrom }
            let current = HTTPResponsePayload(
                url: request.url, statusCode: Int(response.status.code), headers: headers, expectedContentLength: length)
            payload = current
            let acceptsRanges = response.headers.first(name: "Accept-Ranges")?.lowercased() == "bytes"
            newValidator = acceptsRanges ? (response.headers.first(name: "ETag") ?? response.headers.first(name: "Last-Modified")) : nil
            try await sink.begin(current, resumed: resumed)
            for try await chunk in response.body {
                try Task.checkCancellation()
                try await sink.write(chunk)
            }
            if Self.transientStatuses.contains(Int(response.status.code)) {
                return .failed(
                    TaskErrorPayload(code: -1011, message: "the server answered \(response.status.code) \(response.status.reasonPhrase)"),
                    transient: true, response: current, validator: newValidator)
            }
            return .completed(current, validator: newValidator)
        } catch {
            let (payloadError, transient) = Self.classify(error)
            return .failed(payloadError, transient: transient, response: payload, validator: newValidator)
        }
    }

    /// The host's HTTP client settings: `read` is the longest wait for more data
    /// (`timeoutIntervalForRequest`). A connection that cannot be made fails the attempt at
    /// once — a refused connection on loopback in microseconds, not after the connect timeout:
    /// AsyncHTTPClient's own retries of connection establishment (its default) would wait out
    /// the 10 s connect timeout on the wall clock, under a virtual run clock too. Retries are the
    /// transfer service's, with their backoff on the run clock.
    static func clientConfiguration(read: TimeAmount) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(10), read: read)
        configuration.redirectConfiguration = .follow(max: 10, allowCycles: false)
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }

    /// HTTP statuses worth another attempt.
    static let transientStatuses: Set<Int> = [408, 429, 502, 503, 504]

    /// NSURLError code and whether to retry, for an error of AsyncHTTPClient or NIO.
    static func classify(_ error: any Error) -> (TaskErrorPayload, transient: Bool) {
        if error is CancellationError {
            return (TaskErrorPayload(code: -999, message: "cancelled"), false)
        }
        let text = String(describing: error)
        if let client = error as? HTTPClientError {
            switch client {
            case .readTimeout, .connectTimeout, .deadlineExceeded:
                return (TaskErrorPayload(code: -1001, message: "The request timed out. (\(text))"), true)
            case .remoteConnectionClosed, .bodyLengthMismatch:
                return (TaskErrorPayload(code: -1005, message: "The network connection was lost. (\(text))"), true)
            case .cancelled:
                return (TaskErrorPayload(code: -999, message: "cancelled"), false)
            case .invalidURL, .emptyScheme, .emptyHost:
                return (TaskErrorPayload(code: -1002, message: "unsupported URL (\(text))"), false)
            default:
                break
            }
        }
        if text.contains("connection refused") || text.contains("Connection refused") || text.contains("ECONNREFUSED") {
            return (TaskErrorPayload(code: -1004, message: "Could not connect to the server. (\(text))"), true)
        }
        if text.contains("reset") || text.contains("closed") || text.contains("EOF") || text.contains("stream ended at an unexpected time")
            || text.contains("HTTPParserError")
        {
            return (TaskErrorPayload(code: -1005, message: "The network connection was lost. (\(text))"), true)
        }
        if text.lowercased().contains("timeout") || text.lowercased().contains("timed out") {
            return (TaskErrorPayload(code: -1001, message: "The request timed out. (\(text))"), true)
        }
        return (TaskErrorPayload(code: -1, message: "unknown error (\(text))"), true)
    }
}

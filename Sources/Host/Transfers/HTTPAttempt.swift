import Foundation
import SandglassIPC

/// One HTTP attempt, the body streamed to `sink` as it arrives. A download resumes with a
/// `Range` request when it has a partial body and a validator (ETag or Last-Modified) from the
/// server; a `206` appends, a `200` starts over.
struct HTTPAttempt: Sendable {
    /// Where the body goes, chunk by chunk; the next chunk waits for `write` to return.
    protocol Sink: Sendable {
        /// The response arrived; `resumed` is true when it continues a partial body.
        func begin(_ response: HTTPResponsePayload, resumed: Bool) async throws
        func write(_ bytes: [UInt8]) async throws
    }

    enum Result: Sendable {
        /// The whole body arrived.
        case completed(HTTPResponsePayload, validator: String?)
        /// The attempt failed; `transient` failures are retried.
        case failed(TaskErrorPayload, transient: Bool, response: HTTPResponsePayload?, validator: String?)
    }

    let transport: HTTPTransport
    /// The longest wait for more of the response (`timeoutIntervalForRequest`).
    let readTimeout: Duration
    let request: HTTPRequestPayload
    /// Bytes already on disk from earlier attempts (0 for none).
    let resumeFrom: Int64
    let validator: String?
    /// Whose turn the attempt takes on the transport.
    let owner: TransferOwner

    func run(into sink: some Sink) async -> Result {
        var outgoing = request
        let validator = validator.flatMap(Self.usable)
        let resuming = resumeFrom > 0 && validator != nil
        if resuming, let validator {
            outgoing.headers.removeAll { ["range", "if-range"].contains($0.name.lowercased()) }
            outgoing.headers += [HeaderField("Range", "bytes=\(resumeFrom)-"), HeaderField("If-Range", validator)]
        }
        let transfer = transport.start(outgoing, readTimeout: readTimeout, owner: owner)
        var payload: HTTPResponsePayload?
        var newValidator = validator
        var reason = ""
        do {
            return try await withTaskCancellationHandler {
                while true {
                    switch await transfer.next() {
                    case .response(let status, let phrase, let headers):
                        func header(_ name: String) -> String? { headers.last { $0.name.lowercased() == name }?.value }
                        let resumed = resuming && status == 206
                        var length = Int64(header("content-length") ?? "") ?? -1
                        if resumed, length >= 0 {
                            // The server chooses the length: a sum past Int64 is more than any quota, not a trap.
                            let (total, overflow) = length.addingReportingOverflow(resumeFrom)
                            length = overflow ? .max : total
                        }
                        let current = HTTPResponsePayload(
                            url: request.url, statusCode: status, headers: headers, expectedContentLength: length)
                        payload = current
                        reason = phrase
                        let acceptsRanges = header("accept-ranges")?.lowercased() == "bytes"
                        // The server's, kept in the task's journal row: up to 256 bytes, else none (no resume).
                        newValidator = acceptsRanges ? Self.validator(header) : nil
                        try await sink.begin(current, resumed: resumed)
                    case .data(let bytes):
                        try Task.checkCancellation()
                        try await sink.write(bytes)
                    case .end(.completed):
                        guard let current = payload else {
                            return .failed(
                                TaskErrorPayload(code: -1011, message: "the server sent no response"), transient: true, response: nil,
                                validator: newValidator)
                        }
                        if Self.transientStatuses.contains(current.statusCode) {
                            let answer = reason.isEmpty ? "\(current.statusCode)" : "\(current.statusCode) \(reason)"
                            return .failed(
                                TaskErrorPayload(code: -1011, message: "the server answered \(answer)"),
                                transient: true, response: current, validator: newValidator)
                        }
                        return .completed(current, validator: newValidator)
                    case .end(.failed(let error, let transient)):
                        return .failed(error, transient: transient, response: payload, validator: newValidator)
                    }
                }
            } onCancel: {
                transfer.cancel()
            }
        } catch {
            transfer.cancel()
            let (payloadError, transient) = Self.classify(error)
            return .failed(payloadError, transient: transient, response: payload, validator: newValidator)
        }
    }

    /// The read timeout of a session's `timeoutIntervalForRequest` in seconds, as an extension
    /// sent it: clamped to 1 ms … 7 days (a NaN is the default 60 s), never a trap.
    static func readTimeout(seconds: Double) -> Duration {
        .milliseconds(Int64(requestTimeout(seconds: seconds) * 1000))
    }

    /// A session's `timeoutIntervalForRequest` in seconds, as an extension sent it: clamped to
    /// 1 ms … 7 days; a NaN is the default, 60 s.
    static func requestTimeout(seconds: Double) -> Double {
        seconds.isNaN ? 60 : min(max(seconds, 0.001), 604_800)
    }

    /// A session's `timeoutIntervalForResource` in seconds, as an extension sent it: at least
    /// 1 ms, at most 100 years (what the run clock holds); a NaN is the default, 7 days.
    static func resourceTimeout(seconds: Double) -> Double {
        seconds.isNaN ? 604_800 : min(max(seconds, 0.001), 3_153_600_000)
    }

    /// A validator the host keeps with its task: at most ``validatorBytes``.
    static func kept(_ validator: String) -> String? {
        validator.utf8.count <= validatorBytes ? validator : nil
    }

    /// The longest validator kept: real ETags and dates take tens of bytes.
    static let validatorBytes = 256

    /// The validator of a response's headers the host keeps: its ETag, else its Last-Modified,
    /// each only within ``validatorBytes``.
    static func validator(_ header: (String) -> String?) -> String? {
        header("etag").flatMap(kept) ?? header("last-modified").flatMap(kept)
    }

    /// A server's validator (ETag or Last-Modified) as the host sends it back in `If-Range`: as
    /// the request policy wants a header value — no line break, no NUL — else none (the attempt
    /// starts over rather than put the server's bytes on the wire as a header of its own).
    static func usable(_ validator: String) -> String? {
        validator.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 } ? nil : validator
    }

    /// HTTP statuses worth another attempt.
    static let transientStatuses: Set<Int> = [408, 429, 502, 503, 504]

    /// NSURLError code and whether to retry, for an error of a sink (the transport's own
    /// failures come with theirs).
    static func classify(_ error: any Error) -> (TaskErrorPayload, transient: Bool) {
        if error is CancellationError {
            return (TaskErrorPayload(code: -999, message: "cancelled"), false)
        }
        if let over = error as? DownloadOverQuota {
            return (TaskErrorPayload(code: -1103, message: over.description), false)
        }
        return (TaskErrorPayload(code: -1, message: "unknown error (\(error))"), true)
    }
}

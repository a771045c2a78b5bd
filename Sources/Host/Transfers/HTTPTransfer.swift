import CHTTP
import CSandbox
import Foundation
import SandglassIPC
import Synchronization

/// One request on the host's `HTTPTransport`: its response's head, its body in chunks and its
/// end, as events an async consumer takes with `next()`. The body held for a slow consumer is
/// bounded: past `highWater` bytes the transfer pauses (its socket is not read) until the
/// consumer is back under `lowWater`.
final class HTTPTransfer: @unchecked Sendable {
    enum Event: Sendable {
        /// The final response's head (after redirects).
        case response(status: Int, reason: String, headers: [HeaderField])
        case data([UInt8])
        case end(Ending)

        enum Ending: Sendable {
            case completed
            /// `transient` failures are worth another attempt.
            case failed(TaskErrorPayload, transient: Bool)

            /// Cancelled by its consumer (NSURLErrorCancelled).
            static let cancelled = Ending.failed(TaskErrorPayload(code: -999, message: "cancelled"), transient: false)
            /// Ended, or refused, by the host's shutdown.
            static let hostShuttingDown = Ending.failed(
                TaskErrorPayload(code: -999, message: "cancelled: the host is shutting down"), transient: false)
        }
    }

    /// Body bytes held for the consumer before the transfer pauses, and the mark under which it
    /// goes on.
    static let highWater = 1 << 20
    static let lowWater = 256 << 10

    private struct Shared {
        var events: [Event] = []
        var first = 0
        var waiter: CheckedContinuation<Event, Never>?
        var bufferedBytes = 0
        /// Held back by the consumer's pace: set by the engine, cleared by the engine when it
        /// lets the transfer go on (so the read timeout never sees a pause as silence).
        var paused = false
        var resumeAsked = false
        var ended = false
    }

    private let shared = Mutex(Shared())
    private let transport: HTTPTransport
    let request: HTTPRequestPayload
    let readTimeoutNanoseconds: UInt64
    /// Whose turn it takes (``ConcurrentTransfers``).
    let owner: TransferOwner

    // The engine thread's alone.
    var handle: UnsafeMutableRawPointer?
    /// In line for its turn (``TransferTurns``), not on the wire yet.
    var waitsItsTurn = false
    /// When it went on the wire (CLOCK_MONOTONIC ns).
    var onWireSince: UInt64 = 0
    var lastActivity: UInt64 = 0
    private var headers: [HeaderField] = []
    private var reason = ""
    private var responded = false
    /// Header lines of every response of the transfer (redirects', trailers), and their bytes.
    private var headerLines = 0
    private var headerBytes = 0
    private var headersOverflowed = false
    /// A transfer coding the server sent other than chunked (`gzip`, …), which the host refuses.
    private var refusedCoding: String?

    /// The most header lines, and bytes of them, one transfer takes in — redirects' and
    /// trailers included (libcurl bounds a response's headers, not its trailers); past either
    /// the transfer fails with -1103, not retried.
    static let maximumHeaderLines = 1_000
    /// A longer reason phrase is cut to this many bytes.
    static let maximumReasonBytes = 128
    static let maximumHeaderBytes = 512 << 10

    init(transport: HTTPTransport, request: HTTPRequestPayload, readTimeout: Duration, owner: TransferOwner) {
        self.transport = transport
        self.request = request
        self.owner = owner
        let (seconds, attoseconds) = readTimeout.components
        readTimeoutNanoseconds = UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds / 1_000_000_000))
    }

    /// The next event; `.end` is the last.
    func next() async -> Event {
        var resume = false
        let event = await withCheckedContinuation { (continuation: CheckedContinuation<Event, Never>) in
            let (ready, caughtUp): (Event?, Bool) = shared.withLock { shared in
                guard shared.first < shared.events.count else {
                    shared.waiter = continuation
                    return (nil, false)
                }
                let event = shared.events[shared.first]
                shared.first += 1
                if shared.first == shared.events.count {
                    shared.events.removeAll(keepingCapacity: true)
                    shared.first = 0
                }
                guard case .data(let bytes) = event else { return (event, false) }
                shared.bufferedBytes -= bytes.count
                guard shared.paused, !shared.resumeAsked, shared.bufferedBytes <= Self.lowWater else { return (event, false) }
                shared.resumeAsked = true
                return (event, true)
            }
            resume = caughtUp
            if let ready { continuation.resume(returning: ready) }
        }
        if resume { transport.resume(self) }
        return event
    }

    /// Ends the transfer as cancelled.
    func cancel() { transport.cancel(self) }

    /// Hands `event` to the consumer; nothing after the end.
    func deliver(_ event: Event) {
        let waiter: CheckedContinuation<Event, Never>? = shared.withLock { shared in
            if shared.ended { return nil }
            if case .end = event { shared.ended = true }
            if let waiter = shared.waiter {
                shared.waiter = nil
                return waiter
            }
            if case .data(let bytes) = event { shared.bufferedBytes += bytes.count }
            shared.events.append(event)
            return nil
        }
        waiter?.resume(returning: event)
    }

    // MARK: on the engine thread

    /// Body bytes received and not yet taken by the consumer.
    var heldBytes: Int { shared.withLock { $0.bufferedBytes } }

    /// Whether the consumer's pace paused the transfer (its read timeout does not run meanwhile).
    var isPaused: Bool { shared.withLock { $0.paused } }

    /// The consumer caught up: the transfer goes on (libcurl may deliver the held chunk at once).
    func resume() {
        guard let handle else { return }
        shared.withLock { shared in
            shared.paused = false
            shared.resumeAsked = false
        }
        lastActivity = sg_monotonic_ns()
        sg_http_resume(handle)
    }

    /// Makes the libcurl transfer and adds it to `multi`, on the connections of `share` (its
    /// app's); false (the transfer ended) if refused.
    func open(on multi: UnsafeMutableRawPointer, share: UnsafeMutableRawPointer) -> Bool {
        lastActivity = sg_monotonic_ns()
        onWireSince = lastActivity
        let lines = RequestPolicy.headersSent(request).map { strdup("\($0.name): \($0.value)") }
        defer { lines.forEach { free($0) } }
        var error = [CChar](repeating: 0, count: 256)
        let context = Unmanaged.passUnretained(self).toOpaque()
        let started: UnsafeMutableRawPointer? = request.url.withCString { url in
            request.method.withCString { method in
                lines.map { UnsafePointer($0) }.withUnsafeBufferPointer { headers in
                    func start(_ body: UnsafeRawBufferPointer?) -> UnsafeMutableRawPointer? {
                        var description = sg_http_request(
                            url: url, method: method, headers: headers.baseAddress, header_count: headers.count,
                            has_body: body == nil ? 0 : 1, body: body?.baseAddress, body_length: body?.count ?? 0,
                            connect_timeout_ms: Int(HTTPTransport.connectTimeout.components.seconds * 1000), context: context,
                            on_header: Self.onHeader, on_body: Self.onBody, check_address: ConnectGuard.check,
                            check_context: Unmanaged.passUnretained(transport.connectGuard).toOpaque(), share: share)
                        return sg_http_start(multi, &description, &error, error.count)
                    }
                    guard let body = request.body else { return start(nil) }
                    return body.withUnsafeBytes { start($0) }
                }
            }
        }
        guard let started else {
            let message = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            finish(.failed(TaskErrorPayload(code: -1002, message: "unsupported URL (\(message))"), transient: false))
            return false
        }
        handle = started
        return true
    }

    /// The response's head goes to the consumer once (a response without a body: at its end).
    func responseArrivedIfNot() {
        guard !responded, let handle else { return }
        let status = sg_http_status(handle)
        guard status > 0 else { return }
        responded = true
        deliver(.response(status: status, reason: reason, headers: headers))
    }

    /// The transfer ended (the engine freed its libcurl transfer).
    func finish(_ ending: Event.Ending) {
        if let coding = refusedCoding {
            // URLSession does not take a transfer coding but chunked either; libcurl would decode it.
            let message = "the server sent the body in the transfer coding \(coding.debugDescription), which is not decoded: only chunked"
            return deliver(.end(.failed(TaskErrorPayload(code: -1016, message: message), transient: false)))
        }
        guard headersOverflowed else { return deliver(.end(ending)) }
        let message =
            "resource exceeds maximum size (more than \(Self.maximumHeaderLines) header lines or \(Self.maximumHeaderBytes) bytes of them, trailers included)"
        deliver(.end(.failed(TaskErrorPayload(code: -1103, message: message), transient: false)))
    }

    /// Takes a header line; false past the bounds on header lines (the transfer is aborted).
    private func header(_ bytes: UnsafeRawBufferPointer) -> Bool {
        headerLines += 1
        headerBytes += bytes.count
        guard headerLines <= Self.maximumHeaderLines, headerBytes <= Self.maximumHeaderBytes else {
            headersOverflowed = true
            return false
        }
        lastActivity = sg_monotonic_ns()
        // After the response went to the consumer, a line is a trailer: counted, not kept.
        guard !responded else { return true }
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            // A new response (a redirect's, an interim 100's, or the final one): its headers only.
            headers = []
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            // The reason phrase goes into error messages and events: a line's worth of it.
            reason = parts.count == 3 ? MessageBudget.cut(String(parts[2]), to: Self.maximumReasonBytes) : ""
        } else if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            // A transfer coding but chunked (gzip, deflate, br, …): libcurl decodes it whatever it
            // was asked, a few KB on the wire making gigabytes. The transfer ends here.
            if name.lowercased() == "transfer-encoding",
                let coding = value.lowercased().split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
                    .first(where: { $0 != "chunked" && !$0.isEmpty })
            {
                refusedCoding = MessageBudget.cut(coding, to: 64)
                return false
            }
            headers.append(HeaderField(name, value))
        }
        return true
    }

    private func body(_ bytes: UnsafeRawBufferPointer) -> Int {
        lastActivity = sg_monotonic_ns()
        responseArrivedIfNot()
        let held: Bool = shared.withLock { shared in
            if shared.bufferedBytes >= Self.highWater, !shared.ended {
                shared.paused = true
                return true
            }
            return false
        }
        if held { return sg_http_pause() }
        deliver(.data(Array(bytes)))
        return bytes.count
    }

    /// What the extension sees of `outcome`: as ``ending(_:_:)`` says, except that a denied
    /// connection names the address it was denied only when the URL named that address itself.
    /// A name's address (after DNS, or a redirect's) is the host's resolver's answer: told, it
    /// would make the host a lookup service for the names of networks the policy denies.
    func ending(_ outcome: sg_http_outcome, _ message: String) -> Event.Ending {
        guard outcome == SG_HTTP_DENIED, let first = message.split(separator: " ").first,
            let denied = AddressRange.address(String(first))
        else { return Self.ending(outcome, message) }
        let host = URLComponents(string: request.url)?.host?.trimmingCharacters(in: CharacterSet(charactersIn: "[]")) ?? ""
        guard AddressRange.address(host) != denied else { return Self.ending(outcome, message) }
        return Self.ending(outcome, "an address its name or a redirect led to" + message.dropFirst(first.count))
    }

    /// The maps from an outcome of libcurl to what the extension sees.
    static func ending(_ outcome: sg_http_outcome, _ message: String) -> Event.Ending {
        func failed(_ code: Int, _ text: String, transient: Bool) -> Event.Ending {
            .failed(TaskErrorPayload(code: code, message: "\(text) (\(message))"), transient: transient)
        }
        switch outcome {
        case SG_HTTP_OK: return .completed
        case SG_HTTP_TIMED_OUT: return failed(-1001, "The request timed out.", transient: true)
        case SG_HTTP_CONNECTION_LOST: return failed(-1005, "The network connection was lost.", transient: true)
        case SG_HTTP_REFUSED: return failed(-1004, "Could not connect to the server.", transient: true)
        case SG_HTTP_DENIED: return failed(-1004, "Could not connect to the server.", transient: false)
        case SG_HTTP_HOST_NOT_FOUND: return failed(-1003, "A server with the specified hostname could not be found.", transient: true)
        case SG_HTTP_UNSUPPORTED_URL: return failed(-1002, "unsupported URL", transient: false)
        case SG_HTTP_TOO_MANY_REDIRECTS: return failed(-1007, "too many HTTP redirects", transient: false)
        case SG_HTTP_TLS_UNTRUSTED: return failed(-1202, "The certificate for this server is invalid.", transient: false)
        case SG_HTTP_TLS_FAILED:
            return failed(-1200, "An SSL error has occurred and a secure connection to the server cannot be made.", transient: false)
        default: return failed(-1, "unknown error", transient: true)
        }
    }

    private static let onHeader: sg_http_callback = { bytes, size, count, context in
        let length = size * count
        guard let bytes, let context else { return length }
        let taken = Unmanaged<HTTPTransfer>.fromOpaque(context).takeUnretainedValue().header(
            UnsafeRawBufferPointer(start: bytes, count: length))
        return taken ? length : 0
    }

    private static let onBody: sg_http_callback = { bytes, size, count, context in
        let length = size * count
        guard let bytes, let context else { return length }
        return Unmanaged<HTTPTransfer>.fromOpaque(context).takeUnretainedValue().body(UnsafeRawBufferPointer(start: bytes, count: length))
    }
}

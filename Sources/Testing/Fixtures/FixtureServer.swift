import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import SandglassHost
import Synchronization

/// A real HTTP server on 127.0.0.1 for tests, the demo and benchmarks: deterministic bodies,
/// byte ranges, slow bodies, and the failures a download must survive.
///
/// Routes (`N` bytes, every byte `i` is `i % 251`):
/// - `/bytes/N` — the body, with `Accept-Ranges`, `ETag` and `Range` support (`?etag=L`: an
///   ETag of L bytes).
///   Query: `delay=MS` before the response, `chunk=BYTES` and `interval=MS` to stream slowly
///   (real time, or a host's run clock: ``FixturePacing``), `length=none` to send it chunked,
///   without a `Content-Length`.
/// - `/flaky/N?failures=K` — the first K requests of this URL get `503`, then as `/bytes/N`.
/// - `/drop/N?after=BYTES&times=K` — the first K requests send the headers and BYTES of the
///   body, then close the connection; after that as `/bytes/N` (so a Range resume completes).
/// - `/chaos/N?seed=S` — network chaos, chosen by `S` and the request's arrival number for this
///   URL (the same seed, the same faults in the same order): as `/bytes/N` (about half the
///   time), a `503`, a connection dropped partway through the body, or a slow body.
/// - `/status/CODE` — that status with a short body.
/// - `/trailers/N` — a short chunked body followed by N trailer fields of 100 bytes.
/// - `/lies/N?length=L` — N bytes whose `Content-Length` says L, then the connection closed: a
///   `206` with a `Content-Range` when the request has a `Range`, else a `200` with
///   `Accept-Ranges` and an `ETag` (a hostile server's lengths).
/// - `/json` — a small JSON document.
/// - `/redirect?to=URL` — `302 Found` to `URL`.
/// - `/echo` — the request's body back, its `Content-Type` in the response's.
///
/// Any route with `gate=NAME` in its query waits to answer until the test opens that gate
/// (``open(gate:)``): the response after an event the test waits for, not after a time.
///
/// ```swift
/// let server = try await FixtureServer.start()
/// let url = server.url("/bytes/65536")
/// …
/// await server.stop()
/// ```
public final class FixtureServer: Sendable {
    /// A request as the server saw it.
    public struct Request: Sendable, Hashable {
        public let method: String
        /// Path and query.
        public let uri: String
        /// The `Range` header, if any.
        public let range: String?
        /// The `Content-Type` header, if any.
        public var contentType: String? = nil
        /// The body's bytes.
        public var body: [UInt8] = []
        /// The client's port: which connection it came on.
        public var connection: Int? = nil
    }

    /// The port it listens on (127.0.0.1).
    public let port: Int
    private let channel: any NIOCore.Channel
    private let state: FixtureState

    private init(port: Int, channel: any NIOCore.Channel, state: FixtureState) {
        self.port = port
        self.channel = channel
        self.state = state
    }

    /// Starts a server on 127.0.0.1 (`port` 0: any free port). Its delays pass on `pacing`
    /// (a host's ``ExtensionHost/fixturePacing``), real time by default.
    public static func start(port: Int = 0, pacing: (any FixturePacing)? = nil) async throws -> FixtureServer {
        let state = FixtureState(pacing: pacing)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline(withErrorHandling: true).flatMap {
                    channel.pipeline.addHandler(FixtureHandler(state: state))
                }
            }
            .bind(host: "127.0.0.1", port: port).get()
        return FixtureServer(port: channel.localAddress?.port ?? port, channel: channel, state: state)
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Every request so far, in order.
    public var requests: [Request] { state.requests.withLock { $0 } }

    /// Requests whose URI starts with `prefix`.
    public func requestCount(_ prefix: String) -> Int {
        requests.filter { $0.uri.hasPrefix(prefix) }.count
    }

    /// The time `delay` and `interval` pass on from now on: a host's ``ExtensionHost/fixturePacing``,
    /// or `nil` for real time. (Settable after `start`, since a host's configuration usually
    /// needs the server's URL first.)
    public var pacing: (any FixturePacing)? {
        get { state.pacing.withLock { $0 } }
        set { state.pacing.withLock { $0 = newValue } }
    }

    /// Bodies sent completely (a dropped or cut-off response does not count).
    public var completedBodies: Int { state.completed.withLock { $0 } }

    /// Bodies sent completely, by the request's URI (path and query).
    public var completedBodiesByURI: [String: Int] { state.completedByURI.withLock { $0 } }

    /// Lets the responses of requests with `gate=name` go: those waiting now, and any later.
    public func open(gate name: String) {
        for waiting in state.open(gate: name) { waiting() }
    }

    /// Stops listening and closes the connections.
    public func stop() async {
        try? await channel.close().get()
    }

    /// Byte `i` of every body.
    public static func byte(at i: Int) -> UInt8 { UInt8(i % 251) }
}

final class FixtureState: Sendable {
    let requests = Mutex<[FixtureServer.Request]>([])
    let perURI = Mutex<[String: Int]>([:])
    let completed = Mutex<Int>(0)
    let completedByURI = Mutex<[String: Int]>([:])

    /// `nil`: real time on the connection's event loop.
    let pacing: Mutex<(any FixturePacing)?>

    init(pacing: (any FixturePacing)?) {
        self.pacing = Mutex(pacing)
    }

    /// Runs `body` on `eventLoop` after `milliseconds` of the server's time.
    func after(milliseconds: Int64, on eventLoop: any NIOCore.EventLoop, _ body: @escaping @Sendable () -> Void) {
        let pacing: any FixturePacing = self.pacing.withLock { $0 } ?? RealTimePacing(eventLoop: eventLoop)
        pacing.after(.milliseconds(milliseconds)) { eventLoop.execute(body) }
    }

    /// Gates opened, and the responses waiting for the others.
    private let gates = Mutex<(opened: Set<String>, waiting: [String: [@Sendable () -> Void]])>(([], [:]))

    /// Runs `body` once gate `name` is open (now, when it is).
    func whenOpen(gate name: String, _ body: @escaping @Sendable () -> Void) {
        let now = gates.withLock { gates in
            if gates.opened.contains(name) { return true }
            gates.waiting[name, default: []].append(body)
            return false
        }
        if now { body() }
    }

    /// Opens gate `name`; returns what waited for it.
    func open(gate name: String) -> [@Sendable () -> Void] {
        gates.withLock { gates in
            gates.opened.insert(name)
            return gates.waiting.removeValue(forKey: name) ?? []
        }
    }

    /// A body of `uri` was sent whole.
    func bodyCompleted(_ uri: String) {
        completed.withLock { $0 += 1 }
        completedByURI.withLock { $0[uri, default: 0] += 1 }
    }

    /// Counts a request of `uri` and returns how many came before it.
    func arrival(_ request: FixtureServer.Request) -> Int {
        requests.withLock { $0.append(request) }
        return perURI.withLock { counts in
            let before = counts[request.uri, default: 0]
            counts[request.uri] = before + 1
            return before
        }
    }
}

/// Answers one connection's requests.
final class FixtureHandler: ChannelInboundHandler, @unchecked Sendable {
    /// Bytes 0 … 250 of every body, which repeat.
    private static let pattern = (0..<251).map { FixtureServer.byte(at: $0) }

    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let state: FixtureState
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(state: FixtureState) {
        self.state = state
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
        case .body(let bytes): body += bytes.readableBytesView
        case .end:
            guard let head else { return }
            self.head = nil
            respond(to: head, body: body, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, body: [UInt8], context: ChannelHandlerContext) {
        let request = FixtureServer.Request(
            method: head.method.rawValue, uri: head.uri, range: head.headers.first(name: "Range"),
            contentType: head.headers.first(name: "Content-Type"), body: body, connection: context.channel.remoteAddress?.port)
        let earlier = state.arrival(request)
        let components = URLComponents(string: head.uri)
        let path = components?.path ?? head.uri
        let query = Dictionary((components?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
        let parts = path.split(separator: "/").map(String.init)
        let delay = Int64(query["delay"] ?? "") ?? 0
        let respond = { [self] in
            switch (parts.first, parts.count) {
            case ("bytes", 2):
                sendBytes(Int(parts[1]) ?? 0, head: head, query: query, context: context, dropAfter: nil)
            case ("flaky", 2):
                if earlier < Int(query["failures"] ?? "1") ?? 1 {
                    sendSimple(.serviceUnavailable, "unavailable (\(earlier + 1))", context: context)
                } else {
                    sendBytes(Int(parts[1]) ?? 0, head: head, query: query, context: context, dropAfter: nil)
                }
            case ("chaos", 2):
                sendChaos(Int(parts[1]) ?? 0, arrival: earlier, head: head, query: query, context: context)
            case ("drop", 2):
                let drop = earlier < Int(query["times"] ?? "1") ?? 1 ? Int(query["after"] ?? "0") ?? 0 : nil
                sendBytes(Int(parts[1]) ?? 0, head: head, query: query, context: context, dropAfter: drop)
            case ("trailers", 2):
                var headers = HTTPHeaders([("Content-Type", "text/plain"), ("Transfer-Encoding", "chunked")])
                headers.add(name: "Trailer", value: "X-Trailer")
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: "body")))), promise: nil)
                let trailers = HTTPHeaders((0..<(Int(parts[1]) ?? 0)).map { ("X-Trailer-\($0)", String(repeating: "t", count: 100)) })
                context.writeAndFlush(wrapOutboundOut(.end(trailers)), promise: nil)
            case ("lies", 2):
                sendLie(Int(parts[1]) ?? 0, length: query["length"] ?? "0", head: head, context: context)
            case ("status", 2):
                sendSimple(HTTPResponseStatus(statusCode: Int(parts[1]) ?? 500), "status \(parts[1])", context: context)
            case ("json", 1):
                sendSimple(
                    .ok, #"{"players":[{"name":"Ada","points":51},{"name":"Grace","points":47}],"round":22}"#,
                    contentType: "application/json", context: context)
            case ("redirect", 1):
                sendSimple(.found, [], headers: [("Location", query["to"] ?? "/")], context: context)
            case ("echo", 1):
                sendSimple(.ok, body, headers: [("Content-Type", head.headers.first(name: "Content-Type") ?? "none")], context: context)
            default:
                sendSimple(.notFound, "no route for \(path)", context: context)
            }
        }
        let afterDelay = { [state] in
            if delay > 0 {
                let later = NIOLoopBound(respond, eventLoop: context.eventLoop)
                state.after(milliseconds: delay, on: context.eventLoop) { later.value() }
            } else {
                respond()
            }
        }
        if let gate = query["gate"] {
            let later = NIOLoopBound(afterDelay, eventLoop: context.eventLoop)
            let eventLoop = context.eventLoop
            state.whenOpen(gate: gate) { eventLoop.execute { later.value() } }
        } else {
            afterDelay()
        }
    }

    private func sendSimple(
        _ status: HTTPResponseStatus, _ body: String, contentType: String = "text/plain",
        context: ChannelHandlerContext
    ) {
        sendSimple(status, Array(body.utf8), headers: [("Content-Type", contentType)], context: context)
    }

    /// A whole response: `headers`, then `body` with its length.
    private func sendSimple(
        _ status: HTTPResponseStatus, _ body: [UInt8], headers fields: [(String, String)], context: ChannelHandlerContext
    ) {
        var headers = HTTPHeaders(fields)
        headers.add(name: "Content-Length", value: String(body.count))
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        if !body.isEmpty { context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// `size` bytes under a `Content-Length` of `length`, then the connection closed.
    private func sendLie(_ size: Int, length: String, head: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = HTTPHeaders([("Content-Length", length), ("Accept-Ranges", "bytes"), ("ETag", "\"lies\"")])
        let ranged = head.headers.first(name: "Range") != nil
        if ranged { headers.add(name: "Content-Range", value: "bytes 0-\(max(0, size - 1))/*") }
        let status: HTTPResponseStatus = ranged ? .partialContent : .ok
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        let body = (0..<size).map(FixtureServer.byte(at:))
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        context.close(promise: nil)
    }

    /// A fault chosen by the seed and the arrival number: the same seed, the same sequence.
    private func sendChaos(_ size: Int, arrival: Int, head: HTTPRequestHead, query: [String: String], context: ChannelHandlerContext) {
        var random = SeededRandom(seed: UInt64(query["seed"] ?? "") ?? 0, 4, UInt64(arrival))
        var query = query
        switch random.int(in: 0...99) {
        case 0..<50:
            sendBytes(size, head: head, query: query, context: context, dropAfter: nil)
        case 50..<65:
            sendSimple(.serviceUnavailable, "chaos: unavailable (request \(arrival + 1))", context: context)
        case 65..<82:
            sendBytes(size, head: head, query: query, context: context, dropAfter: random.int(in: 0...max(0, size - 1)))
        default:
            query["chunk"] = String(random.int(in: 1024...8192))
            query["interval"] = String(random.int(in: 1...10))
            sendBytes(size, head: head, query: query, context: context, dropAfter: nil)
        }
    }

    private func sendBytes(_ size: Int, head: HTTPRequestHead, query: [String: String], context: ChannelHandlerContext, dropAfter: Int?) {
        // `etag=L`: a validator of L bytes (a hostile server's), else one naming the size.
        let etag =
            Int(query["etag"] ?? "").map { "\"" + String(repeating: "e", count: max(0, min($0, 1 << 20))) + "\"" } ?? "\"bytes-\(size)\""
        var start = 0
        var status = HTTPResponseStatus.ok
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/octet-stream")
        headers.add(name: "Accept-Ranges", value: "bytes")
        headers.add(name: "ETag", value: etag)
        if let range = head.headers.first(name: "Range"), range.hasPrefix("bytes="),
            head.headers.first(name: "If-Range").map({ $0 == etag }) ?? true
        {
            let spec = range.dropFirst("bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
            if let first = spec.first, let from = Int(first), from < size {
                start = from
                status = .partialContent
                headers.add(name: "Content-Range", value: "bytes \(from)-\(size - 1)/\(size)")
            }
        }
        if query["length"] == "none" {
            // No length announced: the body comes chunked, its size known only at its end.
            headers.add(name: "Transfer-Encoding", value: "chunked")
        } else {
            headers.add(name: "Content-Length", value: String(size - start))
        }
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        let chunk = max(1, Int(query["chunk"] ?? "") ?? 64 * 1024)
        let interval = Int64(query["interval"] ?? "") ?? 0
        let limit = dropAfter.map { min(size, start + $0) } ?? size
        sendChunk(
            from: start, to: limit, size: size, chunk: chunk, interval: interval, drop: dropAfter != nil, uri: head.uri, context: context)
    }

    private func sendChunk(
        from offset: Int, to limit: Int, size: Int, chunk: Int, interval: Int64, drop: Bool, uri: String,
        context: ChannelHandlerContext
    ) {
        guard context.channel.isActive else { return }
        guard offset < limit else {
            if drop {
                context.flush()
                context.close(promise: nil)
            } else {
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                state.bodyCompleted(uri)
            }
            return
        }
        let end = min(limit, offset + chunk)
        var buffer = context.channel.allocator.buffer(capacity: end - offset)
        var i = offset
        while i < end {
            // A run of the 251-byte pattern at a time (a byte at a time is slow in a debug build).
            let start = i % 251
            let count = min(251 - start, end - i)
            buffer.writeBytes(Self.pattern[start..<(start + count)])
            i += count
        }
        if drop && end == limit {
            // Cut the connection once the last bytes are on the wire, not before.
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer)))).whenComplete { _ in
                bound.value.close(promise: nil)
            }
            return
        }
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        if end == size && !drop {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            state.bodyCompleted(uri)
            return
        }
        if interval > 0 {
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            state.after(milliseconds: interval, on: context.eventLoop) {
                let (handler, context) = bound.value
                handler.sendChunk(
                    from: end, to: limit, size: size, chunk: chunk, interval: interval, drop: drop, uri: uri, context: context)
            }
        } else {
            sendChunk(from: end, to: limit, size: size, chunk: chunk, interval: interval, drop: drop, uri: uri, context: context)
        }
    }
}

import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// A small HTTP server for Prometheus: `GET /metrics` answers the exposition of
/// ``HostMetrics``; anything else is 404. Binds `127.0.0.1:PORT` (port 0: any free port, see
/// ``port``). Stops listening on graceful shutdown.
public final class MetricsServer: Service, Sendable {
    private let server: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
    private let metrics: HostMetrics
    private let logger: Logger
    /// The port it listens on.
    public let port: Int
    /// The address it listens on.
    public let host: String

    private init(
        server: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>,
        metrics: HostMetrics, host: String, port: Int, logger: Logger
    ) {
        self.server = server
        self.metrics = metrics
        self.host = host
        self.port = port
        self.logger = logger
    }

    /// Binds `host:port`.
    public static func bind(
        host: String, port: Int, metrics: HostMetrics,
        logger: Logger = Logger(label: "sandglass.metrics")
    ) async throws -> MetricsServer {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(wrappingChannelSynchronously: channel)
                }
            }
        return MetricsServer(server: server, metrics: metrics, host: host, port: server.channel.localAddress?.port ?? port, logger: logger)
    }

    /// Serves requests until graceful shutdown.
    public func run() async throws {
        try await acceptConnections(of: server) { await self.serve($0, requested: $1) }
    }

    private func serve(
        _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, requested: @escaping @Sendable () -> Void
    ) async {
        // Any local user may connect: one that says nothing is closed, and gives its slot to a
        // newcomer when all are taken, so that connections held open never keep a scrape out.
        // The deadline covers the answer too: a client that asks and never reads is closed.
        let channel = connection.channel
        let idle = channel.eventLoop.scheduleTask(in: ControlServer.requestTimeout) { channel.close(promise: nil) }
        defer { idle.cancel() }
        do {
            try await connection.executeThenClose { inbound, outbound in
                var head: HTTPRequestHead?
                for try await part in inbound {
                    switch part {
                    case .head(let request): head = request
                    case .body: break
                    case .end:
                        requested()
                        guard let request = head else { return }
                        let (status, body, type) = self.answer(request)
                        var headers = HTTPHeaders()
                        headers.add(name: "Content-Type", value: type)
                        headers.add(name: "Content-Length", value: String(body.utf8.count))
                        headers.add(name: "Connection", value: "close")
                        try await outbound.write(.head(HTTPResponseHead(version: request.version, status: status, headers: headers)))
                        try await outbound.write(.body(.byteBuffer(ByteBuffer(string: body))))
                        try await outbound.write(.end(nil))
                        return
                    }
                }
            }
        } catch {
            logger.debug("metrics connection ended: \(error)")
        }
    }

    /// Whether a request naming `hostHeader` is answered by a server bound to `bound`: on a
    /// loopback address, only one for a loopback name — a web page whose name was rebound to
    /// 127.0.0.1 (DNS rebinding) names itself, and is refused; on another address, any.
    static func answers(hostHeader: String, boundTo bound: String) -> Bool {
        let loopback = bound == "localhost" || bound == "::1" || bound.hasPrefix("127.")
        guard loopback else { return true }
        var name = hostHeader.lowercased()
        if name.hasPrefix("[") {
            name = String(name.dropFirst().prefix { $0 != "]" })
        } else if let colon = name.lastIndex(of: ":") {
            name = String(name[..<colon])
        }
        var address = in_addr()
        let loopbackLiteral = inet_pton(AF_INET, name, &address) == 1 && UInt32(bigEndian: address.s_addr) >> 24 == 127
        return name == "localhost" || name == "::1" || loopbackLiteral
    }

    private func answer(_ request: HTTPRequestHead) -> (HTTPResponseStatus, String, String) {
        let path = request.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.uri
        if let name = request.headers.first(name: "host"), !Self.answers(hostHeader: name, boundTo: host) {
            return (
                .forbidden, "the metrics answer requests for a loopback name, not \(name.debugDescription)\n", "text/plain; charset=utf-8"
            )
        }
        guard request.method == .GET || request.method == .HEAD else {
            return (.methodNotAllowed, "only GET\n", "text/plain; charset=utf-8")
        }
        switch path {
        case "/metrics":
            return (.ok, metrics.exposition(), "text/plain; version=0.0.4; charset=utf-8")
        case "/":
            return (.ok, "sandglass daemon: Prometheus metrics at /metrics\n", "text/plain; charset=utf-8")
        default:
            return (.notFound, "not found: \(path) (the metrics are at /metrics)\n", "text/plain; charset=utf-8")
        }
    }
}

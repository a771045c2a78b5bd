import AsyncHTTPClient
import NIOCore
import NIOPosix

/// The host's HTTP clients — one per read timeout (`timeoutIntervalForRequest`), shared by
/// background downloads and inline requests — made on first use and shut down with the host
/// (their connections closed). They run on NIO's process-wide singleton group, which never shuts
/// down: its event loops (two on a 2-core machine: epoll, eventfd, timerfd each) stay open in the
/// process after a host's shutdown, and the stress worker's descriptor baseline includes them
/// (``ProcessHygiene/prepareBaseline()``). A group of the host's own, shut down with it, was
/// tried: with it, an inline download streamed to an extension that never reads it stopped
/// reaching its channel-limit kill under load (RogueMessageTests), for a reason not found yet.
/// Confined to the host's loop thread.
final class HTTPClients {
    private var clients: [Int64: HTTPClient] = [:]

    /// The client whose read timeout is `read` (at least 1 ms).
    func client(read: TimeAmount) -> HTTPClient {
        let key = max(read.nanoseconds, 1_000_000)
        if let client = clients[key] { return client }
        let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: HTTPAttempt.clientConfiguration(read: .nanoseconds(key)))
        clients[key] = client
        return client
    }

    /// The client for a session's `timeoutIntervalForRequest` in seconds, as an extension sent
    /// it: clamped to 1 ms … 7 days (a NaN is the default 60 s), never a trap.
    func client(readSeconds seconds: Double) -> HTTPClient {
        let clamped = seconds.isNaN ? 60 : min(max(seconds, 0.001), 604_800)
        return client(read: .milliseconds(Int64(clamped * 1000)))
    }

    /// Shuts every client down (requests still in flight fail; connections close).
    func shutdown() async {
        let open = Array(clients.values)
        clients.removeAll()
        for client in open { try? await client.shutdown() }
    }
}

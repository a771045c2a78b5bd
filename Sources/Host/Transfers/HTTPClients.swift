import AsyncHTTPClient
import NIOCore
import NIOPosix

/// The host's HTTP clients — one per read timeout (`timeoutIntervalForRequest`), shared by
/// background downloads and inline requests — and the event loops they run on, made on first use
/// and shut down with the host: the clients, their connections, then the loops' threads and their
/// descriptors (epoll, eventfd, timerfd each). A host leaves nothing behind in its process; on NIO's
/// process-wide singleton group, which never shuts down, every process that had run a download
/// kept two event loops open after its host's shutdown. Confined to the host's loop thread.
final class HTTPClients {
    private var group: MultiThreadedEventLoopGroup?
    private var clients: [Int64: HTTPClient] = [:]

    /// The client whose read timeout is `read` (at least 1 ms).
    func client(read: TimeAmount) -> HTTPClient {
        let key = max(read.nanoseconds, 1_000_000)
        if let client = clients[key] { return client }
        // Two threads, as NIO's singleton group has on a 2-core machine. (RogueMessageTests'
        // unread inline download missed its channel-limit kill under load with one thread — and
        // then also with the singleton group and AsyncHTTPClient's own retries back: the thread
        // count is not its cause.)
        let group = self.group ?? MultiThreadedEventLoopGroup(numberOfThreads: 2)
        self.group = group
        let client = HTTPClient(eventLoopGroup: group, configuration: HTTPAttempt.clientConfiguration(read: .nanoseconds(key)))
        clients[key] = client
        return client
    }

    /// The client for a session's `timeoutIntervalForRequest` in seconds, as an extension sent
    /// it: clamped to 1 ms … 7 days (a NaN is the default 60 s), never a trap.
    func client(readSeconds seconds: Double) -> HTTPClient {
        let clamped = seconds.isNaN ? 60 : min(max(seconds, 0.001), 604_800)
        return client(read: .milliseconds(Int64(clamped * 1000)))
    }

    /// Shuts every client down (requests still in flight fail), then the event loop.
    func shutdown() async {
        let open = Array(clients.values)
        clients.removeAll()
        for client in open { try? await client.shutdown() }
        if let group {
            self.group = nil
            try? await group.shutdownGracefully()
        }
    }
}

import CHTTP
import CSandbox

/// Each app's connections, TLS sessions and resolved names on the host's transport, apart from
/// every other app's (a libcurl share per app): a request never goes on a connection another
/// app's request used, where a server that parses a request differently from libcurl could take
/// one app's bytes for part of the other's, nor resumes its TLS session, which would tie the two
/// apps together for the server, nor finds a name in the cache because another app looked it up
/// (how fast it resolves would tell). An app's own requests reuse its connections.
///
/// Owned by the transport's engine thread. At most ``idleLimit`` apps without a request on the
/// wire keep their connections: past it, those of the app idle the longest are closed; and an
/// app idle for ``idleLifetime`` loses them (libcurl looks at a cache's connections only when
/// one of its transfers runs, so an idle app's would otherwise stay open, closed by the server
/// or not). Each app keeps at most as many as its requests on the wire at once
/// (``ConcurrentTransfers/perApp``: the multi handle's connection limits count each share's).
final class AppConnections {
    /// Apps whose connections stay open while they have no request on the wire.
    static let idleLimit = 16
    /// How long an idle app keeps its connections: libcurl's own limit on an idle connection's age.
    static let idleLifetime: Duration = .seconds(118)

    private var shares: [String: UnsafeMutableRawPointer] = [:]
    private var onWire: [String: Int] = [:]
    /// Apps without a request on the wire, by when they went idle (monotonic nanoseconds).
    private var idleSince: [String: UInt64] = [:]

    /// The share of `app`'s connections, made on first use, counting a request of its on the
    /// wire; nil when libcurl cannot make one.
    func share(for app: String) -> UnsafeMutableRawPointer? {
        if shares[app] == nil {
            guard let made = sg_http_share_new() else { return nil }
            shares[app] = made
        }
        onWire[app, default: 0] += 1
        idleSince[app] = nil
        return shares[app]
    }

    /// A request of `app`'s left the wire (its transfer freed) at `now`.
    func ended(_ app: String, now: UInt64 = sg_monotonic_ns()) {
        let left = (onWire[app] ?? 1) - 1
        onWire[app] = left > 0 ? left : nil
        guard left <= 0 else { return }
        idleSince[app] = now
        while idleSince.count > Self.idleLimit, let oldest = idleSince.min(by: { $0.value < $1.value })?.key {
            close(oldest)
        }
    }

    /// Closes the connections of the apps idle for ``idleLifetime`` at `now`.
    func closeIdle(now: UInt64) {
        let lifetime = UInt64(Self.idleLifetime.components.seconds) * 1_000_000_000
        for (app, since) in idleSince where now >= since &+ lifetime { close(app) }
    }

    private func close(_ app: String) {
        idleSince[app] = nil
        if let share = shares.removeValue(forKey: app) { sg_http_share_free(share) }
    }

    /// Whether `app`'s connections are open.
    func holds(_ app: String) -> Bool { shares[app] != nil }

    /// Closes every app's connections: every transfer must have been freed.
    func freeAll() {
        shares.values.forEach { sg_http_share_free($0) }
        shares.removeAll()
        onWire.removeAll()
        idleSince.removeAll()
    }

    deinit { shares.values.forEach { sg_http_share_free($0) } }
}

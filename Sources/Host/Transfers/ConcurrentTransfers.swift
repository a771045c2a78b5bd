/// How many requests the host has on the wire at once, for one extension, one app and in all
/// (``HostConfiguration/concurrentTransfers``). The rest wait their turn, in order; a slot freed
/// goes to the owner waiting with the fewest on the wire, so one extension's flood of requests
/// neither holds the host's sockets nor holds up another's.
public struct ConcurrentTransfers: Sendable, Hashable {
    /// Requests of one owner on the wire at once. An extension's background downloads are one
    /// owner, and each of its processes' inline requests another, so that a widget's
    /// `getTimeline` fetch does not wait behind its own downloads (only behind its app's share,
    /// ``perApp``, when the app's extensions use all of it). Six: `URLSession`'s
    /// `httpMaximumConnectionsPerHost` on macOS, and a browser's.
    public var perOwner = 6
    /// Requests of one app's extensions on the wire at once, so that an app of many extensions
    /// cannot take the whole host's.
    public var perApp = 16
    /// Requests on the wire at once in the whole host.
    public var total = 64
    /// How long a request keeps its slot while the host's are all taken and another app's
    /// request waits: past it the oldest request of the app with the most on the wire gives way
    /// (`NSURLErrorTimedOut`, -1001, transient: a background download is retried, resuming
    /// where it was). Without it, a few apps whose servers never answer would hold every slot.
    public var turn: Duration = .seconds(60)

    public init(perOwner: Int = 6, perApp: Int = 16, total: Int = 64, turn: Duration = .seconds(60)) {
        self.perOwner = max(1, perOwner)
        self.perApp = max(1, perApp)
        self.total = max(1, total)
        self.turn = max(.zero, turn)
    }
}

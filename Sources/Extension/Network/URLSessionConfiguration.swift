/// The settings of a `URLSession`: `.default` and `.ephemeral` sessions make *inline* requests,
/// which belong to the live process and die with it; `.background(withIdentifier:)` sessions
/// hand their transfers to the host, which finishes them after the extension is gone and
/// relaunches it, by identifier, to deliver the results.
///
/// ```swift
/// let configuration = URLSessionConfiguration.background(withIdentifier: "com.example.feed")
/// configuration.sessionSendsLaunchEvents = true
/// configuration.sharedContainerIdentifier = "group.com.example"
/// let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
/// ```
///
/// A session takes a copy when it is created; later changes to this object do not reach it.
/// Like Apple's, the object itself is not safe to mutate from several threads at once.
open class URLSessionConfiguration: NSObject, NSCopying, @unchecked Sendable {
    /// What kind of session a configuration makes.
    enum Kind: Sendable, Equatable {
        case `default`
        case ephemeral
        case background
    }

    let kind: Kind

    /// The background session identifier; `nil` for default and ephemeral configurations.
    public let identifier: String?
    /// Whether the system relaunches the extension when the session's tasks finish (true by
    /// default); ignored by non-background sessions.
    open var sessionSendsLaunchEvents = true
    /// Whether the system may wait for good conditions to start transfers (false by default).
    open var isDiscretionary = false
    /// Seconds a request may stay idle (60 by default). Background tasks that time out are retried
    /// by the host within ``timeoutIntervalForResource``.
    open var timeoutIntervalForRequest: TimeInterval = 60
    /// Seconds a whole resource may take, retries included (7 days by default).
    open var timeoutIntervalForResource: TimeInterval = 604_800
    /// The App Group container of the session's files. Accepted with or without a value: the
    /// host puts downloaded files in the extension's own container.
    open var sharedContainerIdentifier: String?
    /// Header fields added to every request that does not set them itself.
    open var httpAdditionalHeaders: [AnyHashable: Any]?
    /// Whether tasks wait for connectivity instead of failing at once; background sessions always wait.
    open var waitsForConnectivity = false
    /// The default cache policy of the session's requests (the host keeps no cache).
    open var requestCachePolicy: URLRequest.CachePolicy = .useProtocolCachePolicy
    /// Whether requests may use a cellular interface; recorded, not used.
    open var allowsCellularAccess = true
    /// Whether requests may use an expensive interface; recorded, not used.
    open var allowsExpensiveNetworkAccess = true
    /// Whether requests may use a constrained (Low Data Mode) interface; recorded, not used.
    open var allowsConstrainedNetworkAccess = true
    /// Connections per host; recorded, not used.
    open var httpMaximumConnectionsPerHost = 6
    /// Whether cookies are set from responses; the host keeps no cookie store.
    open var httpShouldSetCookies = true
    /// Whether HTTP pipelining is used; recorded, not used.
    open var httpShouldUsePipelining = false

    init(kind: Kind, identifier: String?) {
        self.kind = kind
        self.identifier = identifier
        super.init()
    }

    /// A new default configuration: an inline session with a persistent-style setup.
    open class var `default`: URLSessionConfiguration {
        URLSessionConfiguration(kind: .default, identifier: nil)
    }

    /// A new ephemeral configuration: an inline session that keeps nothing on disk.
    open class var ephemeral: URLSessionConfiguration {
        URLSessionConfiguration(kind: .ephemeral, identifier: nil)
    }

    /// A new background configuration: transfers the host performs and finishes even after the
    /// extension was terminated. `identifier` must not be empty; one process may hold a given
    /// identifier at a time.
    open class func background(withIdentifier identifier: String) -> URLSessionConfiguration {
        if identifier.isEmpty {
            fatalError("URLSessionConfiguration.background(withIdentifier:): the identifier must not be empty")
        }
        return URLSessionConfiguration(kind: .background, identifier: identifier)
    }

    /// A copy with the same settings.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = URLSessionConfiguration(kind: kind, identifier: identifier)
        copy.sessionSendsLaunchEvents = sessionSendsLaunchEvents
        copy.isDiscretionary = isDiscretionary
        copy.timeoutIntervalForRequest = timeoutIntervalForRequest
        copy.timeoutIntervalForResource = timeoutIntervalForResource
        copy.sharedContainerIdentifier = sharedContainerIdentifier
        copy.httpAdditionalHeaders = httpAdditionalHeaders
        copy.waitsForConnectivity = waitsForConnectivity
        copy.requestCachePolicy = requestCachePolicy
        copy.allowsCellularAccess = allowsCellularAccess
        copy.allowsExpensiveNetworkAccess = allowsExpensiveNetworkAccess
        copy.allowsConstrainedNetworkAccess = allowsConstrainedNetworkAccess
        copy.httpMaximumConnectionsPerHost = httpMaximumConnectionsPerHost
        copy.httpShouldSetCookies = httpShouldSetCookies
        copy.httpShouldUsePipelining = httpShouldUsePipelining
        return copy
    }

    /// The additional header fields whose names and values are strings.
    var additionalHeaderFields: [HTTPHeaderFields.Field] {
        guard let httpAdditionalHeaders else { return [] }
        return httpAdditionalHeaders.compactMap { key, value -> HTTPHeaderFields.Field? in
            guard let name = key.base as? String else { return nil }
            return HTTPHeaderFields.Field(name: name, value: (value as? String) ?? String(describing: value))
        }.sorted { $0.name < $1.name }
    }
}

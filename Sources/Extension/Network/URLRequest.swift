/// A URL load request: the URL, method, header fields and body the host sends on your behalf.
///
/// On Linux Foundation keeps `URLRequest` in FoundationNetworking, which an extension does not
/// import; this is the SDK's, with Apple's names.
///
/// ```swift
/// var request = URLRequest(url: URL(string: "https://example.com/scores")!)
/// request.httpMethod = "POST"
/// request.setValue("application/json", forHTTPHeaderField: "Content-Type")
/// request.httpBody = try JSONEncoder().encode(query)
/// ```
public struct URLRequest: Sendable, Hashable, CustomStringConvertible {
    /// How a request uses cached responses. Recorded only: the host keeps no cache, so every
    /// request loads from the origin.
    public enum CachePolicy: UInt, Sendable, Hashable {
        /// The policy of the protocol (HTTP caching rules).
        case useProtocolCachePolicy = 0
        /// Load from the origin, ignoring any local cache.
        case reloadIgnoringLocalCacheData = 1
        /// Load from the origin, ignoring local and intermediate caches.
        case reloadIgnoringLocalAndRemoteCacheData = 4
        /// Use cached data whatever its age, else load.
        case returnCacheDataElseLoad = 2
        /// Use cached data whatever its age, and never load.
        case returnCacheDataDontLoad = 3
        /// Revalidate cached data with the origin before using it.
        case reloadRevalidatingCacheData = 5

        /// The older name of ``reloadIgnoringLocalCacheData``.
        public static var reloadIgnoringCacheData: CachePolicy { .reloadIgnoringLocalCacheData }
    }

    /// The default timeout of a request, seconds.
    static let defaultTimeoutInterval: Double = 60

    /// The URL of the request.
    public var url: URL?
    /// The cache policy of the request.
    public var cachePolicy: CachePolicy
    /// Seconds the request may stay idle before it times out (60 by default; left at 60, the
    /// session's `timeoutIntervalForRequest` applies).
    public var timeoutInterval: TimeInterval
    /// The main document URL, for cookie policies; recorded, not used.
    public var mainDocumentURL: URL?
    /// Whether the request may use a cellular interface; every request may on the host.
    public var allowsCellularAccess = true
    /// Whether cookies are sent and stored; the host keeps no cookie store.
    public var httpShouldHandleCookies = true
    /// The request body.
    public var httpBody: Data?

    private var method = "GET"
    private var headers = HTTPHeaderFields()

    /// A request for `url`.
    public init(url: URL, cachePolicy: CachePolicy = .useProtocolCachePolicy, timeoutInterval: TimeInterval = 60.0) {
        self.url = url
        self.cachePolicy = cachePolicy
        self.timeoutInterval = timeoutInterval
    }

    /// The HTTP method, `GET` unless set; setting `nil` restores `GET`.
    public var httpMethod: String? {
        get { method }
        set { method = newValue ?? "GET" }
    }

    /// Every header field, or `nil` when there is none. Setting it replaces them all.
    public var allHTTPHeaderFields: [String: String]? {
        get { headers.isEmpty ? nil : headers.dictionary }
        set {
            headers = HTTPHeaderFields()
            for (name, value) in (newValue ?? [:]).sorted(by: { $0.key < $1.key }) {
                headers.set(value, for: name)
            }
        }
    }

    /// The value of a header field, compared without regard to case.
    public func value(forHTTPHeaderField field: String) -> String? {
        headers.value(for: field)
    }

    /// Sets a header field, replacing its value; `nil` removes it.
    public mutating func setValue(_ value: String?, forHTTPHeaderField field: String) {
        headers.set(value, for: field)
    }

    /// Adds a value to a header field, after a comma when it is already set.
    public mutating func addValue(_ value: String, forHTTPHeaderField field: String) {
        headers.add(value, for: field)
    }

    /// The URL, as Apple's `description` gives it.
    public var description: String {
        url?.absoluteString ?? "url: nil"
    }

    /// The header fields in order.
    var headerFields: [HTTPHeaderFields.Field] { headers.fields }
}

/// `TimelineEntryRelevance` on the wire.
public struct RelevancePayload: Sendable, Hashable {
    public var score: Float
    /// Seconds; 0 means "until the next entry".
    public var duration: Double

    public init(score: Float, duration: Double) {
        self.score = score
        self.duration = duration
    }
}

/// One timeline entry as the extension encoded it.
public struct EntryPayload: Sendable, Hashable {
    /// The entry's `date`, seconds since 1970.
    public var date: Double
    public var relevance: RelevancePayload?
    /// The entry as a JSON object (UTF-8), recorded verbatim by the host.
    public var json: [UInt8]
    /// The texts of the entry's view, one line per `Text` (since 4.0; before, what the
    /// configuration's content closure returned, described).
    public var text: String?
    /// The entry's view as the SDK evaluated and laid it out (since 4.0), when the
    /// configuration has a content closure.
    public var view: ViewRendering?

    public init(date: Double, relevance: RelevancePayload? = nil, json: [UInt8], text: String? = nil, view: ViewRendering? = nil) {
        self.date = date
        self.relevance = relevance
        self.json = json
        self.text = text
        self.view = view
    }
}

/// `TimelineReloadPolicy` on the wire.
public enum ReloadPolicyPayload: Sendable, Hashable {
    case atEnd
    /// Seconds since 1970. The host reads any double: NaN or a date before the run as now, a
    /// date more than 100 years into the run (`Date.distantFuture`) as 100 years.
    case after(Double)
    case never
}

/// A `Timeline`: entries and the policy for the next reload.
public struct TimelinePayload: Sendable, Hashable {
    /// The most entries one timeline may have: a reply with more does not decode. (A timeline
    /// with an entry a minute for two days and more; each entry costs the host its decoding,
    /// its record and its line in the log.)
    public static let maximumEntries = 4096

    public var entries: [EntryPayload]
    public var policy: ReloadPolicyPayload

    public init(entries: [EntryPayload], policy: ReloadPolicyPayload) {
        self.entries = entries
        self.policy = policy
    }
}

/// `NCUpdateResult` on the wire (Apple's raw values).
public enum UpdateResultCode: UInt8, Sendable, Hashable, CaseIterable {
    case newData = 0
    case noData = 1
    case failed = 2
}

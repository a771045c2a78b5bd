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
    /// The text rendering from the configuration's content closure, if it has one.
    public var text: String?

    public init(date: Double, relevance: RelevancePayload? = nil, json: [UInt8], text: String? = nil) {
        self.date = date
        self.relevance = relevance
        self.json = json
        self.text = text
    }
}

/// `TimelineReloadPolicy` on the wire.
public enum ReloadPolicyPayload: Sendable, Hashable {
    case atEnd
    /// Seconds since 1970.
    case after(Double)
    case never
}

/// A `Timeline`: entries and the policy for the next reload.
public struct TimelinePayload: Sendable, Hashable {
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

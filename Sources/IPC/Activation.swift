/// Identifies a request; its reply names the same id.
public struct RequestID: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public var rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (lhs: RequestID, rhs: RequestID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }
}

/// What the host tells a provider about the widget it asks for (`TimelineProviderContext`).
public struct ActivationContext: Sendable, Hashable {
    /// The widget kind the request is for.
    public var kind: String
    /// The family name (`systemSmall`, …).
    public var family: String
    /// True when the widget appears in the gallery.
    public var isPreview: Bool
    /// The display size in points.
    public var displayWidth: Double
    public var displayHeight: Double

    public init(kind: String, family: String, isPreview: Bool, displayWidth: Double, displayHeight: Double) {
        self.kind = kind
        self.family = family
        self.isPreview = isPreview
        self.displayWidth = displayWidth
        self.displayHeight = displayHeight
    }
}

/// A custom log: a subsystem (usually the app's or extension's bundle identifier, reversed-DNS)
/// and a category, which the event log records with each message.
///
/// ```swift
/// let log = OSLog(subsystem: "com.example.widget", category: "network")
/// os_log("fetched %d items", log: log, type: .info, count)
/// ```
public final class OSLog: Sendable {
    /// The log's subsystem.
    public let subsystem: String
    /// The log's category.
    public let category: String
    let isDisabled: Bool

    /// A log for `subsystem` and `category`.
    public init(subsystem: String, category: String) {
        self.subsystem = subsystem
        self.category = category
        isDisabled = false
    }

    /// A log for `subsystem` and one of the system's categories.
    public convenience init(subsystem: String, category: OSLog.Category) {
        self.init(subsystem: subsystem, category: category.rawValue)
    }

    private init(disabled: Bool) {
        subsystem = ""
        category = ""
        isDisabled = disabled
    }

    /// The shared log without a subsystem or category.
    public static let `default` = OSLog(disabled: false)

    /// A log that records nothing.
    public static let disabled = OSLog(disabled: true)

    /// Whether messages of `type` are recorded: every level is, except on ``disabled``.
    public func isEnabled(type: OSLogType) -> Bool { !isDisabled }

    /// Whether signposts are recorded (Sandglass records none).
    public var signpostsEnabled: Bool { false }

    /// The system's predefined categories.
    public struct Category: RawRepresentable, Hashable, Sendable {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// Points of interest (Instruments' category).
        public static let pointsOfInterest = Category(rawValue: "PointsOfInterest")
        /// Dynamic tracing.
        public static let dynamicTracing = Category(rawValue: "DynamicTracing")
        /// Dynamic stack tracing.
        public static let dynamicStackTracing = Category(rawValue: "DynamicStackTracing")
    }
}

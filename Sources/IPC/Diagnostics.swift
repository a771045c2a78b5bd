/// Severity of a log record, as swift-log and os_log spell them.
public enum LogLevel: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case debug = 0
    case info = 1
    case notice = 2
    case warning = 3
    case error = 4
    case fault = 5

    public var description: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .notice: "notice"
        case .warning: "warning"
        case .error: "error"
        case .fault: "fault"
        }
    }
}

/// A line the extension (or its SDK) wants in the event log.
public struct LogRecord: Sendable, Hashable {
    public var level: LogLevel
    public var message: String

    public init(level: LogLevel, message: String) {
        self.level = level
        self.message = message
    }
}

/// Why a request failed or a peer is refused.
public enum ErrorCode: UInt16, Sendable, Hashable, CaseIterable {
    /// The peer's major protocol version is not spoken here.
    case unsupportedVersion = 1
    /// A request named a widget kind the extension does not have.
    case unknownKind = 2
    /// The request is not supported by this extension (for example a timeline from a Today extension).
    case unsupportedRequest = 3
    /// The provider failed (threw, or the SDK could not encode its entry).
    case providerFailed = 4
    /// Anything else.
    case other = 0xFFFF
}

/// An error report; `requestID` names the request it answers, if any.
public struct ErrorReport: Sendable, Hashable {
    public var requestID: RequestID?
    public var code: ErrorCode
    public var message: String

    public init(requestID: RequestID? = nil, code: ErrorCode, message: String) {
        self.requestID = requestID
        self.code = code
        self.message = message
    }
}

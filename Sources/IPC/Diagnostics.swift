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

/// What the SDK noticed about the extension's own code, reported as it happens (the host cannot
/// see inside the process; these reports are how it learns of misuse it must judge).
public enum DiagnosticCode: UInt8, Sendable, Hashable, CaseIterable {
    /// A delivery meant for the main thread has not started after `milliseconds`: the main
    /// thread is busy with something else.
    case mainThreadBusy = 0
    /// A call delivered on the main thread (`widgetPerformUpdate`) has not returned after
    /// `milliseconds`, and is still running: it blocks the main thread.
    case mainThreadBlocking = 1
    /// A call delivered on the main thread returned after `milliseconds`, longer than the SDK's
    /// hang threshold: it blocked the main thread that long.
    case mainThreadBlocked = 2
    /// A completion handler was called a second time; the first result counts.
    case completionCalledTwice = 3
    /// The principal class does not implement `widgetPerformUpdate` (either form).
    case performUpdateNotImplemented = 4
}

/// A report from the SDK about the extension's code; `requestID` names the activation it
/// concerns, if any.
public struct DiagnosticReport: Sendable, Hashable {
    public var code: DiagnosticCode
    public var requestID: RequestID?
    /// How long, for the main-thread codes; 0 otherwise.
    public var milliseconds: Double
    /// A sentence for the log (for `completionCalledTwice`, the result of the second call).
    public var message: String

    public init(code: DiagnosticCode, requestID: RequestID? = nil, milliseconds: Double = 0, message: String) {
        self.code = code
        self.requestID = requestID
        self.milliseconds = milliseconds
        self.message = message
    }
}

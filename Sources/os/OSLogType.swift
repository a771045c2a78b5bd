/// The level of a log message (`OS_LOG_TYPE_*`), with Apple's raw values.
///
/// In Sandglass's event log a message's `level` is `debug`, `info`, `notice` (`.default`),
/// `error` or `fault`.
public struct OSLogType: RawRepresentable, Equatable, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The default level (`Logger.notice`, `Logger.log`, `os_log` without a type).
    public static let `default` = OSLogType(0x00)
    /// Information that may help to troubleshoot.
    public static let info = OSLogType(0x01)
    /// Information useful while developing (`Logger.debug`, `Logger.trace`).
    public static let debug = OSLogType(0x02)
    /// An error (`Logger.error`, `Logger.warning`).
    public static let error = OSLogType(0x10)
    /// A bug in a program or system (`Logger.fault`, `Logger.critical`).
    public static let fault = OSLogType(0x11)

    /// The level's name in Sandglass's event log.
    var levelName: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .error: "error"
        case .fault: "fault"
        default: "notice"
        }
    }
}

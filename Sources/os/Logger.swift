/// Writes messages to the log: in Sandglass, the host's event log, as `log` events with the
/// logger's subsystem and category and the message's level (`stream` `oslog`).
///
/// ```swift
/// import OSLog
///
/// let logger = Logger(subsystem: "com.example.weather.widget", category: "timeline")
/// logger.info("fetched \(forecasts.count) forecasts for \(city, privacy: .private)")
/// ```
///
/// Levels as Apple stores them: `trace` and `debug` are `debug`; `info` is `info`; `notice`
/// and `log` are `notice` (OSLogType `.default`); `warning` and `error` are `error`;
/// `critical` and `fault` are `fault`.
public struct Logger: @unchecked Sendable {
    let osLog: OSLog

    /// A logger without a subsystem or category.
    public init() {
        osLog = .default
    }

    /// A logger for `subsystem` (usually the bundle identifier) and `category`.
    public init(subsystem: String, category: String) {
        osLog = OSLog(subsystem: subsystem, category: category)
    }

    /// A logger writing to `log`.
    public init(_ log: OSLog) {
        osLog = log
    }

    /// Logs `message` at the default level.
    public func log(_ message: OSLogMessage) {
        log(level: .default, message)
    }

    /// Logs `message` at `level`.
    public func log(level: OSLogType, _ message: OSLogMessage) {
        guard osLog.isEnabled(type: level) else { return }
        LogSink.write(level, subsystem: osLog.subsystem, category: osLog.category, message.text(revealsPrivate: LogSink.revealsPrivate))
    }

    /// Logs at the debug level.
    public func trace(_ message: OSLogMessage) { log(level: .debug, message) }
    /// Logs at the debug level.
    public func debug(_ message: OSLogMessage) { log(level: .debug, message) }
    /// Logs at the info level.
    public func info(_ message: OSLogMessage) { log(level: .info, message) }
    /// Logs at the default level.
    public func notice(_ message: OSLogMessage) { log(level: .default, message) }
    /// Logs at the error level.
    public func warning(_ message: OSLogMessage) { log(level: .error, message) }
    /// Logs at the error level.
    public func error(_ message: OSLogMessage) { log(level: .error, message) }
    /// Logs at the fault level.
    public func critical(_ message: OSLogMessage) { log(level: .fault, message) }
    /// Logs at the fault level.
    public func fault(_ message: OSLogMessage) { log(level: .fault, message) }
}

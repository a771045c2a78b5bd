import Foundation
import SandglassIPC
@_spi(SandglassRuntime) import WidgetKit

/// Where messages go: to the host's event log as `log` events (subsystem, category, level)
/// when the process runs under the Sandglass host, else to standard error.
enum LogSink {
    /// Private values are shown when the host says so (`SANDGLASS_LOG_PRIVATE=1`, set by
    /// `sandglass run --log-private`), as Xcode shows them for the process it launched.
    /// An in-process runtime's messages follow its own host's choice (its connection's environment).
    static var revealsPrivate: Bool {
        guard let connection = RuntimeServices.connection, connection.isInProcess else { return processRevealsPrivate }
        return connection.environment["SANDGLASS_LOG_PRIVATE"] == "1"
    }

    private static let processRevealsPrivate: Bool = ProcessInfo.processInfo.environment["SANDGLASS_LOG_PRIVATE"] == "1"

    static func write(_ type: OSLogType, subsystem: String, category: String, _ message: String) {
        if let connection = RuntimeServices.connection {
            connection.send(.osLog(OSLogRecord(level: type.level, subsystem: subsystem, category: category, message: message)))
        } else {
            let logger = [subsystem, category].filter { !$0.isEmpty }.joined(separator: ":")
            FileHandle.standardError.write(Data("[\(type.levelName)]\(logger.isEmpty ? "" : " [\(logger)]") \(message)\n".utf8))
        }
    }
}

extension OSLogType {
    /// The protocol's level for this type.
    var level: LogLevel {
        switch self {
        case .debug: .debug
        case .info: .info
        case .error: .error
        case .fault: .fault
        default: .notice
        }
    }
}

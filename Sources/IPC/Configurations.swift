/// The configuration a widget instance carries: its intent's parameters as a JSON object
/// (UTF-8), as the user set them in the widget's edit sheet — here, from the run
/// (`--configuration`, a scenario, the host API). Empty when the widget has none (the SDK then
/// hands the provider the intent's defaults).
public struct WidgetConfigurationPayload: Sendable, Hashable {
    /// The widget kind.
    public var kind: String
    /// The family name (`systemSmall`, …).
    public var family: String
    /// The intent's parameters as a JSON object; empty: the defaults.
    public var intent: [UInt8]

    public init(kind: String, family: String, intent: [UInt8]) {
        self.kind = kind
        self.family = family
        self.intent = intent
    }
}

/// A message of `Logger` / `os_log` (`import OSLog`, `import os`): the level (`OSLogType`),
/// the logger's subsystem and category, and the message with its private values already
/// redacted (or not) by the SDK, as the host asked.
public struct OSLogRecord: Sendable, Hashable {
    public var level: LogLevel
    public var subsystem: String
    public var category: String
    public var message: String

    public init(level: LogLevel, subsystem: String, category: String, message: String) {
        self.level = level
        self.subsystem = subsystem
        self.category = category
        self.message = message
    }

    /// The bytes of text it carries, counted against the log budget.
    public var textBytes: Int { subsystem.utf8.count + category.utf8.count + message.utf8.count }
}

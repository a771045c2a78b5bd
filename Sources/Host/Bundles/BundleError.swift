/// Why a bundle was refused, naming the file and — when there is one — the key at fault.
///
/// `file` is relative to the directory that contains the `.app`, so messages read the same
/// wherever the bundle lives: `Leaderboard.app/PlugIns/LeaderboardWidget.appex/Info.plist`.
/// For the inputs of ``BundleAssembler`` it is the path as given. `message` says what is
/// wrong and what to do, and starts with the key when there is one:
///
/// ```
/// Leaderboard.app/PlugIns/X.appex/Info.plist: NSExtension.NSExtensionPointIdentifier is
/// "com.apple.share-services"; a widget extension needs com.apple.widgetkit-extension (WidgetKit)
/// or com.apple.widget-extension (Today)
/// ```
public struct BundleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The offending file or directory.
    public var file: String
    /// The offending key, dotted for nested dictionaries (`SandglassLimits.MemoryMiB`), or
    /// `nil` when the file itself is at fault.
    public var key: String?
    /// What is wrong and what to do.
    public var message: String

    /// An error about `key` of `file` (or the file itself when `key` is `nil`).
    public init(file: String, key: String? = nil, message: String) {
        self.file = file
        self.key = key
        self.message = message
    }

    /// `file: message`.
    public var description: String { "\(file): \(message)" }
}

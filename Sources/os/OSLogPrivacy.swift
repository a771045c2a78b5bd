/// Whether an interpolated value of a log message is shown or redacted.
///
/// Sandglass redacts as a device does when no debugger is attached: `.private` and
/// `.sensitive` values, and under `.auto` every dynamic string and object, appear as
/// `<private>`; integers, floating-point numbers and Booleans are public under `.auto`.
/// A host run with private data revealed (`sandglass run --log-private`,
/// `HostConfiguration.revealsPrivateLogValues`), as Xcode does for the process it launches,
/// shows `.private` and `.auto` values; `.sensitive` values stay redacted. With the `.hash` mask
/// a redacted value shows as `<mask.hash: '…'>`, a stable hash (not Apple's) that lets equal
/// values be matched.
public struct OSLogPrivacy: Equatable, Hashable, Sendable {
    enum Level: Hashable, Sendable {
        case `public`
        case `private`
        case sensitive
        case auto
    }

    /// How a redacted value is shown.
    public enum Mask: Equatable, Hashable, Sendable {
        /// A hash of the value replaces it.
        case hash
        /// `<private>` replaces it.
        case none
    }

    let level: Level
    let mask: Mask

    /// Shows the value.
    public static let `public` = OSLogPrivacy(level: .public, mask: .none)
    /// Redacts the value.
    public static let `private` = OSLogPrivacy(level: .private, mask: .none)
    /// Redacts the value, even where private data is shown.
    public static let sensitive = OSLogPrivacy(level: .sensitive, mask: .none)
    /// Redacts dynamic strings and objects, shows numbers and Booleans.
    public static let auto = OSLogPrivacy(level: .auto, mask: .none)

    /// Redacts the value, shown as `mask` says.
    public static func `private`(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(level: .private, mask: mask) }
    /// Redacts the value even where private data is shown, shown as `mask` says.
    public static func sensitive(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(level: .sensitive, mask: mask) }
    /// The default rules, a redacted value shown as `mask` says.
    public static func auto(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(level: .auto, mask: mask) }

    /// `value` as the log shows it: itself, or its redaction.
    func apply(to value: String, isScalar: Bool, revealsPrivate: Bool) -> String {
        let redacted: Bool =
            switch level {
            case .public: false
            case .sensitive: true
            case .private: !revealsPrivate
            case .auto: !isScalar && !revealsPrivate
            }
        guard redacted else { return value }
        switch mask {
        case .none: return "<private>"
        case .hash: return "<mask.hash: '\(Self.hash(value))'>"
        }
    }

    /// A stable 64-bit FNV-1a hash of `value`'s UTF-8, in hexadecimal.
    static func hash(_ value: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in value.utf8 {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01b3
        }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

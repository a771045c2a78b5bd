/// A key for a value of the environment, with its default.
///
/// ```swift
/// private struct AccentKey: EnvironmentKey {
///     static let defaultValue = Color.orange
/// }
///
/// extension EnvironmentValues {
///     var accent: Color {
///         get { self[AccentKey.self] }
///         set { self[AccentKey.self] = newValue }
///     }
/// }
/// ```
public protocol EnvironmentKey {
    /// The type of the value.
    associatedtype Value

    /// The value when no view above set one.
    static var defaultValue: Value { get }
}

/// The values a view reads with `@Environment`, set by the system (family, colour scheme,
/// redaction) and by modifiers of the views above it.
public struct EnvironmentValues: CustomStringConvertible {
    private var values: [ObjectIdentifier: Any] = [:]

    /// The default environment.
    public init() {}

    /// The value for `key`, or its default.
    public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
        get { values[ObjectIdentifier(key)] as? K.Value ?? K.defaultValue }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    public var description: String { "EnvironmentValues(\(values.count) values set)" }

    // MARK: the environment of the body being evaluated

    /// The environment of the `body` the SDK is evaluating (on the main thread), read by
    /// `@Environment`.
    nonisolated(unsafe) private static var current = EnvironmentValues()

    /// Runs `body` with `environment` as the one `@Environment` reads.
    @MainActor
    static func evaluating<T>(_ environment: EnvironmentValues, _ body: () -> T) -> T {
        let saved = current
        current = environment
        defer { current = saved }
        return body()
    }

    /// The environment `@Environment` reads now.
    static var ofCurrentBody: EnvironmentValues { current }

    /// How many times `colorScheme` was read: a view that reads it is evaluated again for
    /// the dark appearance.
    nonisolated(unsafe) static var colorSchemeReads = 0
}

/// A value of the environment, read while the view's `body` is evaluated.
///
/// ```swift
/// @Environment(\.widgetFamily) var family
/// @Environment(\.colorScheme) var colorScheme
/// ```
@propertyWrapper
public struct Environment<Value>: DynamicProperty {
    let keyPath: KeyPath<EnvironmentValues, Value>

    /// Reads the value at `keyPath`.
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {
        self.keyPath = keyPath
    }

    /// The value in the environment of the body being evaluated.
    public var wrappedValue: Value {
        EnvironmentValues.ofCurrentBody[keyPath: keyPath]
    }
}

/// A stored property of a view that the system updates before evaluating its body
/// (`@Environment`).
public protocol DynamicProperty {}

// MARK: the values of the environment

private struct ColorSchemeKey: EnvironmentKey { static let defaultValue = ColorScheme.light }
private struct RedactionReasonsKey: EnvironmentKey { static let defaultValue: RedactionReasons = [] }
private struct LuminanceReducedKey: EnvironmentKey { static let defaultValue = false }
private struct FontKey: EnvironmentKey { static let defaultValue: Font? = nil }
private struct LineLimitKey: EnvironmentKey { static let defaultValue: Int? = nil }
private struct TextAlignmentKey: EnvironmentKey { static let defaultValue = TextAlignment.leading }
private struct MinimumScaleKey: EnvironmentKey { static let defaultValue: CGFloat = 1 }
private struct TruncationKey: EnvironmentKey { static let defaultValue = Text.TruncationMode.tail }
private struct LineSpacingKey: EnvironmentKey { static let defaultValue: CGFloat = 0 }
private struct LocaleKey: EnvironmentKey { static var defaultValue: Locale { Locale.current } }
private struct CalendarKey: EnvironmentKey { static var defaultValue: Calendar { Calendar.current } }
private struct TimeZoneKey: EnvironmentKey { static var defaultValue: TimeZone { TimeZone.current } }
private struct DisplayScaleKey: EnvironmentKey { static let defaultValue: CGFloat = 3 }
private struct LayoutDirectionKey: EnvironmentKey { static let defaultValue = LayoutDirection.leftToRight }
private struct EnabledKey: EnvironmentKey { static let defaultValue = true }

extension EnvironmentValues {
    /// Light or dark: the SDK renders every entry in both.
    public var colorScheme: ColorScheme {
        get {
            Self.colorSchemeReads += 1
            return self[ColorSchemeKey.self]
        }
        set { self[ColorSchemeKey.self] = newValue }
    }

    /// Why the view is shown redacted: `.placeholder` for the placeholder entry.
    public var redactionReasons: RedactionReasons {
        get { self[RedactionReasonsKey.self] }
        set { self[RedactionReasonsKey.self] = newValue }
    }

    /// Whether the display is dimmed (always-on); false in Sandglass's renders.
    public var isLuminanceReduced: Bool {
        get { self[LuminanceReducedKey.self] }
        set { self[LuminanceReducedKey.self] = newValue }
    }

    /// The font of text that sets none.
    public var font: Font? {
        get { self[FontKey.self] }
        set { self[FontKey.self] = newValue }
    }

    /// The most lines a text may take, `nil` for no limit.
    public var lineLimit: Int? {
        get { self[LineLimitKey.self] }
        set { self[LineLimitKey.self] = newValue }
    }

    /// How the lines of a text align.
    public var multilineTextAlignment: TextAlignment {
        get { self[TextAlignmentKey.self] }
        set { self[TextAlignmentKey.self] = newValue }
    }

    /// How far a text may shrink to fit.
    public var minimumScaleFactor: CGFloat {
        get { self[MinimumScaleKey.self] }
        set { self[MinimumScaleKey.self] = newValue }
    }

    /// Where a text that does not fit is cut.
    public var truncationMode: Text.TruncationMode {
        get { self[TruncationKey.self] }
        set { self[TruncationKey.self] = newValue }
    }

    /// Extra points between the lines of a text.
    public var lineSpacing: CGFloat {
        get { self[LineSpacingKey.self] }
        set { self[LineSpacingKey.self] = newValue }
    }

    /// The locale dates and numbers are formatted for.
    public var locale: Locale {
        get { self[LocaleKey.self] }
        set { self[LocaleKey.self] = newValue }
    }

    /// The calendar dates are formatted with.
    public var calendar: Calendar {
        get { self[CalendarKey.self] }
        set { self[CalendarKey.self] = newValue }
    }

    /// The time zone dates are shown in.
    public var timeZone: TimeZone {
        get { self[TimeZoneKey.self] }
        set { self[TimeZoneKey.self] = newValue }
    }

    /// Pixels per point (3, an iPhone's).
    public var displayScale: CGFloat {
        get { self[DisplayScaleKey.self] }
        set { self[DisplayScaleKey.self] = newValue }
    }

    /// Left to right in Sandglass's renders.
    public var layoutDirection: LayoutDirection {
        get { self[LayoutDirectionKey.self] }
        set { self[LayoutDirectionKey.self] = newValue }
    }

    /// Whether controls are enabled.
    public var isEnabled: Bool {
        get { self[EnabledKey.self] }
        set { self[EnabledKey.self] = newValue }
    }
}

/// The appearance a view is drawn in.
public enum ColorScheme: Sendable, Hashable, CaseIterable {
    case light
    case dark
}

/// The direction of text and of stacks.
public enum LayoutDirection: Sendable, Hashable, CaseIterable {
    case leftToRight
    case rightToLeft
}

/// Why a view is shown redacted.
public struct RedactionReasons: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The placeholder: text and images drawn as grey shapes.
    public static let placeholder = RedactionReasons(rawValue: 1 << 0)
    /// Sensitive data hidden while the device is locked.
    public static let privacy = RedactionReasons(rawValue: 1 << 1)
    /// Content that may be out of date (after an app intent, until the reload).
    public static let invalidated = RedactionReasons(rawValue: 1 << 2)
}

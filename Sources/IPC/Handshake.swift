/// What kind of extension is speaking: a WidgetKit widget extension or a legacy Today extension.
public enum ExtensionRole: UInt8, Sendable, Hashable, CaseIterable {
    /// `com.apple.widgetkit-extension`: timeline providers.
    case widgetKit = 0
    /// `com.apple.widget-extension`: a Today extension answering `widgetPerformUpdate`.
    case today = 1
}

/// One widget kind as the extension declares it in its `WidgetConfiguration`.
public struct WidgetDescription: Sendable, Hashable {
    /// The `kind` string of the configuration.
    public var kind: String
    /// `configurationDisplayName(_:)`, empty when not given.
    public var displayName: String
    /// `description(_:)`, empty when not given.
    public var summary: String
    /// `supportedFamilies(_:)` as family names (`systemSmall`, `accessoryCircular`, …).
    public var supportedFamilies: [String]

    public init(kind: String, displayName: String = "", summary: String = "", supportedFamilies: [String]) {
        self.kind = kind
        self.displayName = displayName
        self.summary = summary
        self.supportedFamilies = supportedFamilies
    }
}

/// The first frame an extension sends, within its launch budget.
public struct Hello: Sendable, Hashable {
    public var version: ProtocolVersion
    /// The extension's `CFBundleIdentifier`, as the SDK read it from its environment.
    public var bundleIdentifier: String
    public var role: ExtensionRole
    /// The widget kinds of a widget extension; empty for a Today extension.
    public var widgets: [WidgetDescription]
    /// Background URL-session identifiers named by `onBackgroundURLSessionEvents(matching: String)`
    /// or `backgroundTask(.urlSession(_:))`.
    public var sessionIdentifiers: [String]
    /// Whether some configuration matches identifiers with a closure (any identifier may be handled).
    public var matchesSessionsByClosure: Bool

    public init(
        version: ProtocolVersion = .current,
        bundleIdentifier: String,
        role: ExtensionRole,
        widgets: [WidgetDescription],
        sessionIdentifiers: [String] = [],
        matchesSessionsByClosure: Bool = false
    ) {
        self.version = version
        self.bundleIdentifier = bundleIdentifier
        self.role = role
        self.widgets = widgets
        self.sessionIdentifiers = sessionIdentifiers
        self.matchesSessionsByClosure = matchesSessionsByClosure
    }
}

/// Which clock a run keeps.
public enum ClockMode: UInt8, Sendable, Hashable {
    case real = 0
    case virtual = 1
}

/// The host's answer to `hello`.
public struct Welcome: Sendable, Hashable {
    /// The negotiated version (same major, lower minor of the two).
    public var version: ProtocolVersion
    public var clockMode: ClockMode
    /// The run clock's start, seconds since 1970.
    public var clockEpoch: Double
    /// The extension's container; `HOME` and `TMPDIR` point into it.
    public var containerPath: String

    public init(version: ProtocolVersion, clockMode: ClockMode, clockEpoch: Double, containerPath: String) {
        self.version = version
        self.clockMode = clockMode
        self.clockEpoch = clockEpoch
        self.containerPath = containerPath
    }
}

import SandglassIPC

/// The extension point an `.appex` plugs into: its `NSExtension.NSExtensionPointIdentifier`.
///
/// Sandglass runs the two points that put widgets on screen; the raw values are Apple's
/// identifier strings.
public enum ExtensionPoint: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `com.apple.widgetkit-extension`: a WidgetKit extension whose `@main` is a `Widget` or `WidgetBundle`.
    case widgetKit = "com.apple.widgetkit-extension"
    /// `com.apple.widget-extension`: a legacy Today extension with an `NCWidgetProviding` principal class.
    case today = "com.apple.widget-extension"

    /// Apple's identifier string, as written in Info.plist.
    public var identifier: String { rawValue }

    /// The role the extension announces in its `hello`.
    public var role: ExtensionRole {
        switch self {
        case .widgetKit: .widgetKit
        case .today: .today
        }
    }

    /// The identifier and what it means, e.g. `com.apple.widgetkit-extension (WidgetKit)`.
    public var description: String {
        switch self {
        case .widgetKit: "\(rawValue) (WidgetKit)"
        case .today: "\(rawValue) (Today)"
        }
    }
}

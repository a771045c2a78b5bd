import SwiftUI

private struct WidgetFamilyKey: EnvironmentKey { static let defaultValue = WidgetFamily.systemSmall }
private struct RenderingModeKey: EnvironmentKey { static let defaultValue = WidgetRenderingMode.fullColor }
private struct ShowsBackgroundKey: EnvironmentKey { static let defaultValue = true }
private struct ContentMarginsKey: EnvironmentKey { static let defaultValue = EdgeInsets(top: 16, leading: 16, bottom: 16, trailing: 16) }

extension EnvironmentValues {
    /// The family of the widget being rendered.
    ///
    /// ```swift
    /// @Environment(\.widgetFamily) var family
    /// ```
    public var widgetFamily: WidgetFamily {
        get { self[WidgetFamilyKey.self] }
        set { self[WidgetFamilyKey.self] = newValue }
    }

    /// How the widget is drawn: in full colour on the Home Screen, vibrant on the Lock Screen.
    public var widgetRenderingMode: WidgetRenderingMode {
        get { self[RenderingModeKey.self] }
        set { self[RenderingModeKey.self] = newValue }
    }

    /// Whether the system draws the widget's container background (not on the Lock Screen).
    public var showsWidgetContainerBackground: Bool {
        get { self[ShowsBackgroundKey.self] }
        set { self[ShowsBackgroundKey.self] = newValue }
    }

    /// The margins the system puts around the widget's content.
    public var widgetContentMargins: EdgeInsets {
        get { self[ContentMarginsKey.self] }
        set { self[ContentMarginsKey.self] = newValue }
    }
}

/// How the system draws a widget.
public struct WidgetRenderingMode: Sendable, Hashable, CustomStringConvertible {
    let name: String

    /// In the widget's own colours (the Home Screen).
    public static let fullColor = WidgetRenderingMode(name: "fullColor")
    /// Tinted, with the accentable views in the accent colour.
    public static let accented = WidgetRenderingMode(name: "accented")
    /// Desaturated, on the Lock Screen.
    public static let vibrant = WidgetRenderingMode(name: "vibrant")

    public var description: String { name }
}

extension ContainerBackgroundPlacement {
    /// The background of a widget, drawn to its edges behind the content margins.
    public static let widget = ContainerBackgroundPlacement(name: "widget")
}

extension WidgetFamily {
    /// The Lock Screen families.
    var isAccessory: Bool { rawValue.hasPrefix("accessory") }

    /// iOS 17's default content margins: 16 points for the Home Screen families, none on the
    /// Lock Screen.
    var contentMargins: EdgeInsets {
        isAccessory ? EdgeInsets() : EdgeInsets(top: 16, leading: 16, bottom: 16, trailing: 16)
    }

    /// The radius of the widget's corners at `size`: about 22 points on the Home Screen (an
    /// iPhone's), a circle for `accessoryCircular`, 12 for `accessoryRectangular`, none inline.
    func cornerRadius(for size: CGSize) -> CGFloat {
        switch self {
        case .accessoryCircular: min(size.width, size.height) / 2
        case .accessoryRectangular: 12
        case .accessoryInline: 0
        default: 22
        }
    }
}

/// The standard background of a Lock Screen widget: a translucent shape of the widget's own.
///
/// ```swift
/// ZStack {
///     AccessoryWidgetBackground()
///     Text("72°")
/// }
/// ```
public struct AccessoryWidgetBackground: View {
    public init() {}

    public var body: some View {
        ContainerRelativeShape().fill(Color.white.opacity(0.25))
    }
}

extension View {
    /// A label for the widget (shown by watchOS complications; iOS does not draw it).
    public func widgetLabel<Label: View>(@ViewBuilder label: () -> Label) -> some View { self }

    /// A label for the widget (shown by watchOS complications; iOS does not draw it).
    public func widgetLabel(_ label: LocalizedStringKey) -> some View { self }

    /// A label for the widget (shown by watchOS complications; iOS does not draw it).
    @_disfavoredOverload
    public func widgetLabel<S: StringProtocol>(_ label: S) -> some View { self }
}

/// A widget: the type marked `@main` in a widget extension with one widget, or one widget of
/// a ``WidgetBundle``.
///
/// ```swift
/// @main
/// struct LeaderboardWidget: Widget {
///     let kind = "Leaderboard"
///
///     var body: some WidgetConfiguration {
///         StaticConfiguration(kind: kind, provider: Provider()) { entry in
///             "\(entry.leader) leads with \(entry.score)"
///         }
///         .configurationDisplayName("Leaderboard")
///         .supportedFamilies([.systemSmall, .systemMedium])
///     }
/// }
/// ```
@MainActor @preconcurrency
public protocol Widget {
    /// The type of the widget's configuration.
    associatedtype Body: WidgetConfiguration

    /// Creates the widget; the system does this once per launch.
    init()

    /// The widget's configuration.
    @WidgetConfigurationBuilder var body: Body { get }
    /// The SDK's own types give their descriptors here (the default, `nil`, reads `body`). Not
    /// for use by extensions.
    var _widgetDescriptors: _WidgetDescriptors? { get }
}

extension Widget {
    /// The entry point of a widget extension: serves this widget to the Sandglass host.
    ///
    /// Run outside the host, it prints how to run it and exits with status 64.
    @inlinable
    public static func main() {
        BareStartProbe.exitIfAsked()
        ExtensionMain.run(descriptors: descriptors(of: Self()))
    }
}

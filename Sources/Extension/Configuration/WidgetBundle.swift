/// Several widgets served by one widget extension.
///
/// ```swift
/// @main
/// struct LeaderboardWidgets: WidgetBundle {
///     var body: some Widget {
///         LeaderboardWidget()
///         NextMatchWidget()
///     }
/// }
/// ```
@MainActor @preconcurrency
public protocol WidgetBundle {
    /// The type of the bundle's content.
    associatedtype Body: Widget

    /// Creates the bundle; the system does this once per launch.
    init()

    /// The widgets of the bundle.
    @WidgetBundleBuilder var body: Body { get }
}

extension WidgetBundle {
    /// The entry point of a widget extension: serves the bundle's widgets to the Sandglass host.
    ///
    /// Run outside the host, it prints how to run it and exits with status 64.
    @inlinable
    public static func main() {
        BareStartProbe.exitIfAsked()
        ExtensionMain.run(descriptors: descriptors(of: Self().body))
    }
}

/// A configuration that describes no widget, for branches that have none.
///
/// ```swift
/// var body: some WidgetConfiguration {
///     if #available(iOS 17.0, *) {
///         StaticConfiguration(kind: kind, provider: Provider())
///     } else {
///         EmptyWidgetConfiguration()
///     }
/// }
/// ```
public struct EmptyWidgetConfiguration: WidgetConfiguration {
    /// Creates the empty configuration.
    public nonisolated init() {}

    /// A primitive configuration has no body.
    public var body: Never {
        fatalError("EmptyWidgetConfiguration is a primitive configuration and has no body")
    }
}

extension EmptyWidgetConfiguration: WidgetDescriptorSource {
    public var _widgetDescriptors: _WidgetDescriptors? { _WidgetDescriptors(widgetDescriptors) }

    var widgetDescriptors: [WidgetDescriptor] { [] }
}

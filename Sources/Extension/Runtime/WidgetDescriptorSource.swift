/// A configuration or widget that knows its descriptors directly (the SDK's primitive and
/// composite types); a user-defined one is asked for its `body` instead.
@MainActor
protocol WidgetDescriptorSource {
    var widgetDescriptors: [WidgetDescriptor] { get }
}

/// The descriptors of a configuration, following user-defined `body` chains to the SDK's types.
@MainActor
func descriptors(of configuration: some WidgetConfiguration) -> [WidgetDescriptor] {
    if let source = configuration as? any WidgetDescriptorSource {
        return source.widgetDescriptors
    }
    return descriptors(of: configuration.body)
}

/// The descriptors of a widget (one configuration) or of a bundle's widget list.
@MainActor
func descriptors(of widget: some Widget) -> [WidgetDescriptor] {
    if let source = widget as? any WidgetDescriptorSource {
        return source.widgetDescriptors
    }
    return descriptors(of: widget.body)
}

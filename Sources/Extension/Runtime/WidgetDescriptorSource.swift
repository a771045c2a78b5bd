/// A configuration or widget that knows its descriptors directly (the SDK's primitive and
/// composite types); a user-defined one is asked for its `body` instead.
///
/// Each such type also answers `_widgetDescriptors`, a defaulted requirement of
/// ``WidgetConfiguration`` and ``Widget``: reading the descriptors through the witness table the
/// generic call already holds costs nothing, where a cast to this protocol (`as? any
/// WidgetDescriptorSource`) makes the runtime scan every protocol conformance of the binary —
/// about 0.1 ms each in an executable with Foundation linked in, paid by every cold start.
@MainActor
protocol WidgetDescriptorSource {
    var widgetDescriptors: [WidgetDescriptor] { get }
}

/// The descriptors an SDK type gives for itself (see ``WidgetDescriptorSource``). Not for use
/// by extensions.
public struct _WidgetDescriptors: Sendable {
    @usableFromInline let list: [WidgetDescriptor]

    init(_ list: [WidgetDescriptor]) {
        self.list = list
    }
}

extension WidgetConfiguration {
    /// `nil`: the descriptors are those of `body`. The SDK's own configurations answer here.
    public var _widgetDescriptors: _WidgetDescriptors? { nil }
}

extension Widget {
    /// `nil`: the descriptors are those of `body`. The SDK's own widget lists answer here.
    public var _widgetDescriptors: _WidgetDescriptors? { nil }
}

/// The descriptors of a configuration, following user-defined `body` chains to the SDK's types.
///
/// Inlinable, as the entry points that call it: specialised in the extension's own module for
/// its widget's type, a `body` of an opaque type is built and walked with that type's metadata
/// made directly. Called generically from here, the runtime would resolve the `body`'s type from
/// its mangled name instead — the view types inside it too, and each of their generic
/// requirements is a scan of every protocol conformance of the binary in a new process.
@inlinable @MainActor
func descriptors(of configuration: some WidgetConfiguration) -> [WidgetDescriptor] {
    configuration._widgetDescriptors?.list ?? descriptors(of: configuration.body)
}

/// The descriptors of a widget (one configuration) or of a bundle's widget list.
@inlinable @MainActor
func descriptors(of widget: some Widget) -> [WidgetDescriptor] {
    widget._widgetDescriptors?.list ?? descriptors(of: widget.body)
}

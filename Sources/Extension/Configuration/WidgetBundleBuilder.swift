/// Builds the `body` of a ``WidgetBundle`` from a list of widgets.
@MainActor @resultBuilder
public enum WidgetBundleBuilder {
    /// A list of widgets.
    public static func buildBlock<each W: Widget>(_ widget: repeat each W) -> _WidgetList<repeat each W> {
        _WidgetList(widgets: (repeat each widget))
    }

    /// Widgets under an `if` without `else`.
    public static func buildOptional<W: Widget>(_ widget: W?) -> _OptionalWidget<W> {
        _OptionalWidget(widget: widget)
    }

    /// The first branch of an `if`/`else`.
    public static func buildEither<TrueContent: Widget, FalseContent: Widget>(
        first: TrueContent
    ) -> _ConditionalWidget<TrueContent, FalseContent> {
        _ConditionalWidget(storage: .trueContent(first))
    }

    /// The second branch of an `if`/`else`.
    public static func buildEither<TrueContent: Widget, FalseContent: Widget>(
        second: FalseContent
    ) -> _ConditionalWidget<TrueContent, FalseContent> {
        _ConditionalWidget(storage: .falseContent(second))
    }

    /// Widgets under `if #available`.
    public static func buildLimitedAvailability<W: Widget>(_ widget: W) -> W {
        widget
    }
}

/// The widgets listed in a bundle's `body`.
public struct _WidgetList<each W: Widget>: Widget {
    let widgets: (repeat each W)

    init(widgets: (repeat each W)) {
        self.widgets = widgets
    }

    /// Creates every widget of the list.
    public init() {
        widgets = (repeat (each W).init())
    }

    /// A list of widgets has no configuration of its own.
    public var body: Never {
        fatalError("_WidgetList has no body")
    }
}

extension _WidgetList: WidgetDescriptorSource {
    public var _widgetDescriptors: _WidgetDescriptors? { _WidgetDescriptors(widgetDescriptors) }

    var widgetDescriptors: [WidgetDescriptor] {
        var result: [WidgetDescriptor] = []
        for widget in repeat each widgets {
            result += descriptors(of: widget)
        }
        return result
    }
}

/// A widget under an `if` without `else` in a bundle's `body`.
public struct _OptionalWidget<W: Widget>: Widget {
    let widget: W?

    init(widget: W?) {
        self.widget = widget
    }

    /// Creates the widget.
    public init() {
        widget = W()
    }

    /// An optional widget has no configuration of its own.
    public var body: Never {
        fatalError("_OptionalWidget has no body")
    }
}

extension _OptionalWidget: WidgetDescriptorSource {
    public var _widgetDescriptors: _WidgetDescriptors? { _WidgetDescriptors(widgetDescriptors) }

    var widgetDescriptors: [WidgetDescriptor] {
        widget.map { descriptors(of: $0) } ?? []
    }
}

/// One of two widgets, chosen by an `if`/`else` in a bundle's `body`.
public struct _ConditionalWidget<TrueContent: Widget, FalseContent: Widget>: Widget {
    enum Storage {
        case trueContent(TrueContent)
        case falseContent(FalseContent)
    }

    let storage: Storage

    init(storage: Storage) {
        self.storage = storage
    }

    /// Creates the first widget.
    public init() {
        storage = .trueContent(TrueContent())
    }

    /// A conditional widget has no configuration of its own.
    public var body: Never {
        fatalError("_ConditionalWidget has no body")
    }
}

extension _ConditionalWidget: WidgetDescriptorSource {
    public var _widgetDescriptors: _WidgetDescriptors? { _WidgetDescriptors(widgetDescriptors) }

    var widgetDescriptors: [WidgetDescriptor] {
        switch storage {
        case .trueContent(let widget): descriptors(of: widget)
        case .falseContent(let widget): descriptors(of: widget)
        }
    }
}

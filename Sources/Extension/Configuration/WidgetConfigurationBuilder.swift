/// Builds the `body` of a ``Widget`` from a configuration, or from one of two configurations.
@MainActor @resultBuilder
public enum WidgetConfigurationBuilder {
    /// An empty body.
    public static func buildBlock() -> EmptyWidgetConfiguration {
        EmptyWidgetConfiguration()
    }

    /// A body of one configuration.
    public static func buildBlock<Content: WidgetConfiguration>(_ content: Content) -> Content {
        content
    }

    /// The first branch of an `if`/`else` or `switch`.
    public static func buildEither<TrueContent: WidgetConfiguration, FalseContent: WidgetConfiguration>(
        first: TrueContent
    ) -> _ConditionalWidgetConfiguration<TrueContent, FalseContent> {
        _ConditionalWidgetConfiguration(storage: .trueContent(first))
    }

    /// The second branch of an `if`/`else` or `switch`.
    public static func buildEither<TrueContent: WidgetConfiguration, FalseContent: WidgetConfiguration>(
        second: FalseContent
    ) -> _ConditionalWidgetConfiguration<TrueContent, FalseContent> {
        _ConditionalWidgetConfiguration(storage: .falseContent(second))
    }

    /// A branch under `if #available`.
    public static func buildLimitedAvailability<Content: WidgetConfiguration>(_ content: Content) -> Content {
        content
    }
}

/// One of two configurations, chosen by an `if`/`else` in a widget's `body`.
public struct _ConditionalWidgetConfiguration<TrueContent: WidgetConfiguration, FalseContent: WidgetConfiguration>:
    WidgetConfiguration
{
    enum Storage {
        case trueContent(TrueContent)
        case falseContent(FalseContent)
    }

    let storage: Storage

    /// A composite configuration has no body of its own.
    public var body: Never {
        fatalError("_ConditionalWidgetConfiguration has no body")
    }
}

extension _ConditionalWidgetConfiguration: WidgetDescriptorSource {
    public var _widgetDescriptors: _WidgetDescriptors? { _WidgetDescriptors(widgetDescriptors) }

    var widgetDescriptors: [WidgetDescriptor] {
        switch storage {
        case .trueContent(let content): descriptors(of: content)
        case .falseContent(let content): descriptors(of: content)
        }
    }
}

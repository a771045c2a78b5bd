/// A widget configuration with no user-configurable options.
///
/// The content closure stands in for the SwiftUI view: it renders an entry as text for the
/// host's reports, and may return a `String` or any other value (recorded with
/// `String(describing:)`). It runs on the main actor, as a view builder would.
///
/// ```swift
/// StaticConfiguration(kind: "Leaderboard", provider: Provider()) { entry in
///     "\(entry.leader) leads with \(entry.score) points"
/// }
/// ```
public struct StaticConfiguration<Content>: WidgetConfiguration {
    let descriptor: WidgetDescriptor

    /// Creates a configuration whose content closure renders each entry as text.
    public init<Provider: TimelineProvider>(
        kind: String,
        provider: Provider,
        content: @escaping @MainActor (Provider.Entry) -> Content
    ) {
        descriptor = WidgetDescriptor(
            kind: kind,
            provider: ErasedProvider(timelineProvider: provider),
            renderer: EntryRenderer(content)
        )
    }

    /// A primitive configuration has no body.
    public var body: Never {
        fatalError("StaticConfiguration is a primitive configuration and has no body")
    }
}

extension StaticConfiguration where Content == Never {
    /// Creates a configuration without a content closure: entries are recorded without text.
    ///
    /// ```swift
    /// StaticConfiguration(kind: "Leaderboard", provider: Provider())
    /// ```
    public init<Provider: TimelineProvider>(kind: String, provider: Provider) {
        descriptor = WidgetDescriptor(kind: kind, provider: ErasedProvider(timelineProvider: provider), renderer: nil)
    }
}

extension StaticConfiguration: WidgetDescriptorSource {
    public var _widgetDescriptors: _WidgetDescriptors? { _WidgetDescriptors(widgetDescriptors) }

    var widgetDescriptors: [WidgetDescriptor] { [descriptor] }
}

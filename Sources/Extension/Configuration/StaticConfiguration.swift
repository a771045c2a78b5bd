import SwiftUI

/// A widget configuration with no user-configurable options.
///
/// The content closure builds the widget's view for an entry; after each timeline, snapshot
/// and placeholder the SDK evaluates it for every entry, with the widget's family and
/// environment, and sends the laid-out view with the entries (on the main actor, inside the
/// activation's time and memory, as iOS does).
///
/// ```swift
/// StaticConfiguration(kind: "Leaderboard", provider: Provider()) { entry in
///     LeaderboardView(entry: entry)
///         .containerBackground(.fill.tertiary, for: .widget)
/// }
/// ```
public struct StaticConfiguration<Content: View>: WidgetConfiguration {
    let descriptor: WidgetDescriptor

    /// Creates a configuration whose content closure makes each entry's view.
    public init<Provider: TimelineProvider>(
        kind: String,
        provider: Provider,
        @ViewBuilder content: @escaping @MainActor (Provider.Entry) -> Content
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
    /// Creates a configuration without a content closure: entries are recorded without a view.
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

import SwiftUI

/// A widget configuration whose provider takes an app-intent configuration.
///
/// ```swift
/// AppIntentConfiguration(kind: "Emoji", intent: ConfigurationAppIntent.self, provider: Provider()) { entry in
///     EmojiView(entry: entry)
///         .containerBackground(.fill.tertiary, for: .widget)
/// }
/// ```
///
/// The SDK evaluates each entry's view as ``StaticConfiguration`` does.
public struct AppIntentConfiguration<Intent: WidgetConfigurationIntent, Content: View>: WidgetConfiguration {
    let descriptor: WidgetDescriptor

    /// Creates a configuration whose content closure makes each entry's view.
    ///
    /// The closure runs on the main actor, as SwiftUI's view builders do.
    public init<Provider: AppIntentTimelineProvider>(
        kind: String,
        intent: Intent.Type = Intent.self,
        provider: Provider,
        @ViewBuilder content: @escaping @MainActor (Provider.Entry) -> Content
    ) where Provider.Intent == Intent {
        descriptor = WidgetDescriptor(
            kind: kind,
            provider: ErasedProvider(appIntentProvider: provider),
            renderer: EntryRenderer(content)
        )
    }

    /// A primitive configuration has no body.
    public var body: Never {
        fatalError("AppIntentConfiguration is a primitive configuration and has no body")
    }
}

extension AppIntentConfiguration where Content == Never {
    /// Creates a configuration without a content closure: entries are recorded without a view.
    public init<Provider: AppIntentTimelineProvider>(
        kind: String,
        intent: Intent.Type = Intent.self,
        provider: Provider
    ) where Provider.Intent == Intent {
        descriptor = WidgetDescriptor(kind: kind, provider: ErasedProvider(appIntentProvider: provider), renderer: nil)
    }
}

extension AppIntentConfiguration: WidgetDescriptorSource {
    public var _widgetDescriptors: _WidgetDescriptors? { _WidgetDescriptors(widgetDescriptors) }

    var widgetDescriptors: [WidgetDescriptor] { [descriptor] }
}

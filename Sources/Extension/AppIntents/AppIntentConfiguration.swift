/// A widget configuration whose provider takes an app-intent configuration.
///
/// ```swift
/// AppIntentConfiguration(kind: "Emoji", intent: ConfigurationAppIntent.self, provider: Provider()) { entry in
///     "\(entry.configuration.favoriteEmoji) at \(entry.date)"
/// }
/// ```
///
/// `Content` is whatever the content closure returns; the SDK records `String(describing:)`
/// of it as the entry's text rendering.
public struct AppIntentConfiguration<Intent: WidgetConfigurationIntent, Content>: WidgetConfiguration {
    let descriptor: WidgetDescriptor

    /// Creates a configuration whose content closure renders each entry as text.
    ///
    /// The closure runs on the main actor, as a SwiftUI view builder would.
    public init<Provider: AppIntentTimelineProvider>(
        kind: String,
        intent: Intent.Type = Intent.self,
        provider: Provider,
        content: @escaping @MainActor (Provider.Entry) -> Content
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
    /// Creates a configuration without a content closure: entries are recorded without text.
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

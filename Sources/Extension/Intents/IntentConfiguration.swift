import Intents

/// A widget configuration whose provider takes a SiriKit custom intent, the configuration the
/// user edits.
///
/// ```swift
/// IntentConfiguration(kind: "Hero", intent: ConfigurationIntent.self, provider: Provider()) { entry in
///     "\(entry.hero?.displayString ?? "no hero") at \(entry.date)"
/// }
/// ```
///
/// `Content` is whatever the content closure returns; the SDK records `String(describing:)`
/// of it as the entry's text rendering.
public struct IntentConfiguration<Intent: INIntent, Content>: WidgetConfiguration {
    let descriptor: WidgetDescriptor

    /// Creates a configuration whose content closure renders each entry as text.
    ///
    /// The closure runs on the main actor, as a SwiftUI view builder would.
    public init<Provider: IntentTimelineProvider>(
        kind: String,
        intent: Intent.Type,
        provider: Provider,
        content: @escaping @MainActor (Provider.Entry) -> Content
    ) where Provider.Intent == Intent {
        descriptor = WidgetDescriptor(
            kind: kind,
            provider: ErasedProvider(intentProvider: provider),
            renderer: EntryRenderer(content)
        )
    }

    /// A primitive configuration has no body.
    public var body: Never {
        fatalError("IntentConfiguration is a primitive configuration and has no body")
    }
}

extension IntentConfiguration where Content == Never {
    /// Creates a configuration without a content closure: entries are recorded without text.
    public init<Provider: IntentTimelineProvider>(
        kind: String,
        intent: Intent.Type,
        provider: Provider
    ) where Provider.Intent == Intent {
        descriptor = WidgetDescriptor(kind: kind, provider: ErasedProvider(intentProvider: provider), renderer: nil)
    }
}

extension IntentConfiguration: WidgetDescriptorSource {
    var widgetDescriptors: [WidgetDescriptor] { [descriptor] }
}

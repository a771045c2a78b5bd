import Intents
import SwiftUI

/// A widget configuration whose provider takes a SiriKit custom intent, the configuration the
/// user edits.
///
/// ```swift
/// IntentConfiguration(kind: "Hero", intent: ConfigurationIntent.self, provider: Provider()) { entry in
///     Text("\(entry.hero?.displayString ?? "no hero")")
/// }
/// ```
///
/// As with ``StaticConfiguration``, the SDK evaluates each entry's view in the extension's
/// process and sends it with the entries.
public struct IntentConfiguration<Intent: INIntent, Content: View>: WidgetConfiguration {
    let descriptor: WidgetDescriptor

    /// Creates a configuration whose content closure makes each entry's view.
    public init<Provider: IntentTimelineProvider>(
        kind: String,
        intent: Intent.Type,
        provider: Provider,
        @ViewBuilder content: @escaping @MainActor (Provider.Entry) -> Content
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
    /// Creates a configuration without a content closure: entries are recorded without a view.
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

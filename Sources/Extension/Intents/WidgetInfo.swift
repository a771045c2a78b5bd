import Intents

/// A widget of the app as it is on screen: its kind, family and configuration
/// (`WidgetCenter.shared.getCurrentConfigurations`).
public struct WidgetInfo: @unchecked Sendable {
    /// The widget's kind.
    public let kind: String
    /// The widget's family.
    public let family: WidgetFamily
    /// The intent of an `IntentConfiguration` widget with the parameters it is configured with;
    /// `nil` for other widgets.
    public let configuration: INIntent?
    let intent: Any?

    init(kind: String, family: WidgetFamily, intent: Any?) {
        self.kind = kind
        self.family = family
        self.intent = intent
        configuration = intent as? INIntent
    }

    /// The configuration intent of an `AppIntentConfiguration` widget, when it is of type `Intent`.
    public func widgetConfigurationIntent<Intent: WidgetConfigurationIntent>(of type: Intent.Type = Intent.self) -> Intent? {
        intent as? Intent
    }
}

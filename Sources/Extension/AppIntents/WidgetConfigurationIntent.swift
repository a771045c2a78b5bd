import AppIntents

/// The configuration of a widget the user can edit, as an app intent (iOS 17's
/// `AppIntentConfiguration`), written as Xcode's widget template writes it:
///
/// ```swift
/// struct ConfigurationAppIntent: WidgetConfigurationIntent {
///     static var title: LocalizedStringResource { "Configuration" }
///     static var description: IntentDescription { "This is an example widget." }
///
///     @Parameter(title: "Favorite Emoji", default: "😃")
///     var favoriteEmoji: String
/// }
/// ```
///
/// Sandglass has no edit sheet: the SDK makes the intent with `init()` and sets the parameters
/// the widget's configuration names (`--configuration`, scenario files,
/// `HostConfiguration.widgetConfigurations`, `ExtensionHost.setConfiguration`): each
/// `@Parameter` (or `@INParameter`) whose value is `Decodable`, or — for an intent that is
/// itself `Decodable` — the whole intent, decoded.
public protocol WidgetConfigurationIntent: AppIntent {
    /// Creates the default configuration.
    init()
}

extension WidgetConfigurationIntent {
    /// The intent's name: the type's, unless the intent gives one.
    public static var title: LocalizedStringResource { LocalizedStringResource(stringLiteral: String(describing: Self.self)) }
}

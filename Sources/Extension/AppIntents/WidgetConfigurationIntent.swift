/// The configuration of a widget the user can edit, as an app intent.
///
/// Sandglass has no configuration UI: the SDK creates the intent with `init()` and hands that
/// default configuration to the provider.
///
/// ```swift
/// struct ConfigurationAppIntent: WidgetConfigurationIntent {
///     var favoriteEmoji = "😃"
/// }
/// ```
public protocol WidgetConfigurationIntent: SendableMetatype {
    /// Creates the default configuration.
    init()
}

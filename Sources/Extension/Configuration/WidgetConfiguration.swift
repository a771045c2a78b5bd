import SwiftUI

/// The description of a widget: its kind, provider, names and families.
///
/// The configurations to use are ``StaticConfiguration`` and ``AppIntentConfiguration``,
/// adjusted with modifiers such as ``configurationDisplayName(_:)``.
@MainActor @preconcurrency
public protocol WidgetConfiguration {
    /// The configuration this one is made of; `Never` for the primitive configurations.
    associatedtype Body: WidgetConfiguration

    /// The configuration this one is made of.
    @WidgetConfigurationBuilder var body: Body { get }
    /// The SDK's own types give their descriptors here (the default, `nil`, reads `body`). Not
    /// for use by extensions.
    var _widgetDescriptors: _WidgetDescriptors? { get }
}

/// `Never` is the body of the primitive configurations (its `body` is SwiftUI's).
extension Never: WidgetConfiguration {}

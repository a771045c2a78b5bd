@_exported import Foundation

/// The configuration of a SiriKit-era configurable widget (`IntentConfiguration`): on Apple's
/// platforms Xcode generates a subclass per custom intent of the `.intentdefinition` file.
///
/// Linux has no Objective-C runtime, so the generated code (`@objc(Name)` classes whose
/// parameters are `@NSManaged` properties) cannot compile here. Write the class as Xcode
/// generates it with two changes: no `@objc(…)` attribute, and `@INParameter` in place of
/// `@NSManaged` (enums gain `Codable`):
///
/// ```swift
/// // Xcode:  @objc(ConfigurationIntent) public class ConfigurationIntent: INIntent {
/// //             @NSManaged public var hero: Hero?
/// //             @NSManaged public var showsDetails: NSNumber?
/// //         }
/// public class ConfigurationIntent: INIntent {
///     @INParameter public var hero: Hero?
///     @INParameter public var showsDetails: NSNumber?
///     @INParameter public var unit: UnitEnum = .metric
/// }
/// public class Hero: INObject {}
/// public enum UnitEnum: Int, Codable { case unknown = 0, metric = 1, imperial = 2 }
/// ```
///
/// The SDK makes the intent with `init()` and sets each `@INParameter` from the widget's
/// configuration, a JSON object keyed by parameter name (`--configuration`, scenario files,
/// ``ExtensionHost/setConfiguration(_:widget:)``); a parameter the configuration leaves out
/// keeps its default.
open class INIntent: NSObject {
    /// The intent's identifier, when the system assigned one.
    open var identifier: String?

    /// The phrase Siri suggests for the intent.
    open var suggestedInvocationPhrase: String?

    /// A description of the intent's parameters, for the system's interfaces.
    open var intentDescription: String? { nil }

    /// An intent with every parameter at its default.
    public required override init() {
        super.init()
    }

    /// Each `@INParameter` of the intent by name, with its value.
    public var parameters: [String: Any] {
        var result: [String: Any] = [:]
        for (name, slot) in INParameterSlots.slots(of: self) { result[name] = slot.currentValue }
        return result
    }

    open override var description: String {
        let fields = INParameterSlots.slots(of: self)
            .map { "\($0.name): \($0.slot.currentValue.map { String(describing: $0) } ?? "nil")" }
        return "\(type(of: self))(\(fields.joined(separator: ", ")))"
    }
}

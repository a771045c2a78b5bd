import AppIntents
import Foundation
@_spi(SandglassRuntime) import Intents

/// An app intent's `@Parameter` of a `Decodable` value is set from the widget's configuration
/// by name, as an `@INParameter` is.
@_spi(SandglassRuntime)
extension IntentParameter: INParameterSlot where Value: Decodable {
    public var currentValue: Any? {
        // `wrappedValue` traps while unset: the stored value, read without it.
        guard let stored = Mirror(reflecting: self).children.first(where: { $0.label == "value" })?.value else { return nil }
        let mirror = Mirror(reflecting: stored)
        guard mirror.displayStyle == .optional else { return stored }
        return mirror.children.first?.value
    }

    public func assign(json: Data) throws {
        wrappedValue = try INParameterDecoding.decoder.decode(Value.self, from: json)
    }
}

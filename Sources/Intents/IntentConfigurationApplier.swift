import Foundation

/// Sets an intent's parameters from a widget's configuration (for the WidgetKit SDK's runtime).
@_spi(SandglassRuntime)
public enum IntentConfigurationApplier {
    /// Sets each ``INParameter`` of `intent` named in `json` (a JSON object); returns a
    /// sentence for each key that names no parameter or whose value does not fit, empty when
    /// everything applied. Empty `json` changes nothing.
    public static func apply(_ json: [UInt8], to intent: Any) -> [String] {
        guard !json.isEmpty else { return [] }
        guard let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any] else {
            return ["the configuration is not a JSON object: \(String(decoding: json.prefix(200), as: UTF8.self))"]
        }
        let slots = Dictionary(INParameterSlots.slots(of: intent), uniquingKeysWith: { first, _ in first })
        var problems: [String] = []
        for key in object.keys.sorted() {
            guard let slot = slots[key] else {
                let known = slots.keys.sorted().joined(separator: ", ")
                problems.append(
                    "the configuration names '\(key)', which \(type(of: intent)) has no @INParameter for (it has \(known.isEmpty ? "none" : known))"
                )
                continue
            }
            do {
                let data = try JSONSerialization.data(withJSONObject: object[key] as Any, options: [.fragmentsAllowed])
                try slot.assign(json: data)
            } catch {
                problems.append("the configuration's '\(key)' does not fit \(type(of: intent)).\(key): \(error)")
            }
        }
        return problems
    }

    /// The intent's parameters as a JSON object (for `getCurrentConfigurations` and the log).
    public static func names(of intent: Any) -> [String] {
        INParameterSlots.slots(of: intent).map(\.name)
    }
}

import Foundation

/// The configurations widgets carry (``HostConfiguration/widgetConfigurations``): each a JSON
/// object of intent parameters, checked before the run starts.
enum WidgetConfigurations {
    /// `configurations`, each value checked to be a JSON object (`""` stands for none).
    static func validated(_ configurations: [String: String]) throws(HostSetupError) -> [String: String] {
        for (widget, json) in configurations.sorted(by: { $0.key < $1.key }) {
            if let problem = problem(with: json) {
                throw HostSetupError(description: "the configuration of widget '\(widget)' \(problem)")
            }
        }
        return configurations.filter { !$0.value.isEmpty }
    }

    /// `json` (checked) for an event's field: the object, or null for none.
    static func eventValue(_ json: String) -> JSONValue {
        guard !json.isEmpty, let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) else { return .null }
        return JSONValue(foundation: object)
    }

    /// Why `json` is not a configuration, or nil when it is one (a JSON object, or empty).
    static func problem(with json: String) -> String? {
        guard !json.isEmpty else { return nil }
        guard let data = json.data(using: .utf8), let object = try? JSONSerialization.jsonObject(with: data) else {
            return
                "is not JSON: \(json.prefix(80).debugDescription); write the intent's parameters as an object, e.g. {\"hero\": \"spider\"}"
        }
        guard object is [String: Any] else {
            return
                "is JSON but not an object: \(json.prefix(80).debugDescription); write the intent's parameters as an object, e.g. {\"hero\": \"spider\"}"
        }
        return nil
    }
}

extension HostConfiguration {
    /// Why `json` cannot be a widget's configuration (it must be a JSON object), or nil.
    public static func problem(withWidgetConfiguration json: String) -> String? {
        WidgetConfigurations.problem(with: json)
    }
}

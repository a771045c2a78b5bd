@_spi(SandglassRuntime) import Intents
import SandglassIPC

/// Makes the intent a provider is asked with: `Intent()`, its parameters set from the widget's
/// configuration (JSON). What does not apply is logged as a warning, and the defaults stay.
enum ConfiguredIntent {
    static func make<Intent>(_ make: () -> Intent, configuration json: [UInt8], kind: String) -> Intent {
        let intent = make()
        for problem in IntentConfigurationApplier.apply(json, to: intent) {
            let line = "widget '\(kind)': \(problem); the intent keeps its default there"
            if let connection = RuntimeServices.connection {
                connection.log(.warning, line)
            } else {
                Syscalls.writeStandardError("sandglass: \(line)\n")
            }
        }
        return intent
    }

    /// The app intent of an `AppIntentConfiguration` widget: decoded from the configuration when
    /// the intent is `Decodable` (and the configuration has every key it needs), else `init()`
    /// with its `@INParameter`s set.
    static func makeAppIntent<Intent: WidgetConfigurationIntent>(_ type: Intent.Type, configuration json: [UInt8], kind: String) -> Intent {
        if !json.isEmpty, let decodable = Intent.self as? any Decodable.Type,
            let decoded = try? JSONDecoder().decode(decodable, from: Data(json)) as? Intent
        {
            return decoded
        }
        return make({ Intent() }, configuration: json, kind: kind)
    }
}

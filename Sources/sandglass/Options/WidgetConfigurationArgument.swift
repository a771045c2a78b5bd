import Foundation
import SandglassHost

/// `--configuration WIDGET=JSON` or `WIDGET=@FILE`: a widget's configuration.
enum WidgetConfigurationArgument {
    static func parse(_ argument: String) throws -> (widget: String, json: String) {
        let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty else {
            throw BadInput("--configuration \(argument): expected WIDGET=JSON or WIDGET=@FILE, e.g. Hero='{\"hero\": \"spider\"}'")
        }
        let json = parts[1].hasPrefix("@") ? try read(String(parts[1].dropFirst()), argument) : parts[1]
        if let problem = HostConfiguration.problem(withWidgetConfiguration: json) {
            throw BadInput("--configuration \(argument): the configuration \(problem)")
        }
        return (parts[0], json)
    }

    private static func read(_ path: String, _ argument: String) throws -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            let data = FileManager.default.contents(atPath: path), data.count <= 1 << 20
        else {
            throw BadInput("--configuration \(argument): \(path) is not a readable file of at most 1 MiB")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

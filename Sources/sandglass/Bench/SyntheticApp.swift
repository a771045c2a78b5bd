import Foundation

/// An app with many widget extensions that share one executable (hard links of the Fleet
/// example's, ten widget kinds each), for the throughput and density figures:
/// `Swarm.app/PlugIns/Swarm0001.appex/FleetWidget`, bundle `com.example.swarm.w0001`, …
enum SyntheticApp {
    static let appIdentifier = "com.example.swarm"

    /// The bundle identifier of extension `index`.
    static func bundle(_ index: Int) -> String { appIdentifier + ".w" + String(format: "%04d", index) }

    /// Writes the app with `count` extensions into `directory` and returns its path.
    static func make(count: Int, examples: String, in directory: String) throws -> String {
        let executable = examples + "/Fleet.app/PlugIns/FleetAlpha.appex/FleetWidget"
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw BadInput("\(executable) is missing: run `make examples`")
        }
        let app = directory + "/Swarm.app"
        let fm = FileManager.default
        try? fm.removeItem(atPath: app)
        try fm.createDirectory(atPath: app + "/PlugIns", withIntermediateDirectories: true)
        try plist([
            "CFBundleIdentifier": appIdentifier, "CFBundleName": "Swarm", "CFBundleDisplayName": "Swarm",
            "CFBundlePackageType": "APPL", "CFBundleInfoDictionaryVersion": "6.0",
            "CFBundleShortVersionString": "1.0", "CFBundleVersion": "1"
        ]).write(to: URL(fileURLWithPath: app + "/Info.plist"))
        for index in 0..<count {
            let name = "Swarm" + String(format: "%04d", index)
            let appex = app + "/PlugIns/\(name).appex"
            try fm.createDirectory(atPath: appex, withIntermediateDirectories: true)
            try plist([
                "CFBundleIdentifier": bundle(index), "CFBundleName": name, "CFBundleDisplayName": name,
                "CFBundleExecutable": "FleetWidget", "CFBundlePackageType": "XPC!", "CFBundleInfoDictionaryVersion": "6.0",
                "CFBundleShortVersionString": "1.0", "CFBundleVersion": "1",
                "NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"]
            ])
            .write(to: URL(fileURLWithPath: appex + "/Info.plist"))
            do { try fm.linkItem(atPath: executable, toPath: appex + "/FleetWidget") } catch {
                try fm.copyItem(atPath: executable, toPath: appex + "/FleetWidget")
            }
        }
        return app
    }

    private static func plist(_ dictionary: [String: Any]) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: dictionary, format: .xml, options: 0)
    }
}

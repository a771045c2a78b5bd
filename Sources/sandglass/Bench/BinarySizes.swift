import Foundation

/// The sizes of the example executables and whether ICU is linked into them (its data, `icudt`,
/// makes a static Swift executable about 60 MB bigger), for the page's note on cold starts.
enum BinarySizes {
    static let executables = [
        ("HelloWorld", "/HelloWorld"),
        ("Leaderboard", "/Leaderboard.app/PlugIns/LeaderboardWidget.appex/LeaderboardWidget"),
        ("Hanging", "/Hanging.app/PlugIns/HangingWidget.appex/HangingWidget"),
        ("Fleet", "/Fleet.app/PlugIns/FleetAlpha.appex/FleetWidget"),
        ("Downloader", "/Downloader.app/PlugIns/DownloaderWidget.appex/DownloaderWidget")
    ]

    /// One line per executable found under `examples`.
    static func describe(examples: String) -> [String] {
        executables.compactMap { name, path in
            guard let data = FileManager.default.contents(atPath: examples + path) else { return nil }
            let icu = data.range(of: Data("icudt".utf8)) != nil
            return String(
                format: "%@: %.1f MB, %@", name, Double(data.count) / 1e6,
                icu ? "ICU linked (FoundationInternationalization)" : "no ICU")
        }
    }
}

import Foundation

/// Finds the built example bundles (`make examples` puts them in `.build/examples`).
enum ExamplesDirectory {
    static func locate(_ explicit: String?) throws -> String {
        var candidates: [String] = []
        if let explicit { candidates.append(explicit) }
        if let env = ProcessInfo.processInfo.environment["SANDGLASS_EXAMPLES"] { candidates.append(env) }
        candidates.append(FileManager.default.currentDirectoryPath + "/.build/examples")
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        candidates.append(exe.appendingPathComponent("../examples").standardizedFileURL.path)
        for dir in candidates where FileManager.default.fileExists(atPath: dir + "/Leaderboard.app/Info.plist") {
            return dir
        }
        throw BadInput(
            """
            the example bundles are not built (looked in \(candidates.joined(separator: ", "))).
            Run `make examples` (or `make demo`), or pass --examples DIR.
            """)
    }
}

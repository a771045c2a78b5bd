import Foundation
import SandglassHost

/// A temporary directory holding an app bundle written file by file, with real plists and a
/// real executable (a copy of `/bin/true`). Call ``remove()`` in a `defer`.
struct BundleFixture {
    /// The temporary directory: the `.app`'s parent.
    let root: String
    /// The app's directory name.
    let appName = "Leaderboard.app"
    let appIdentifier = "com.example.Leaderboard"
    let widgetIdentifier = "com.example.Leaderboard.Widget"

    /// The relative file names errors use.
    let appInfoFile = "Leaderboard.app/Info.plist"
    let widgetInfoFile = "Leaderboard.app/PlugIns/LeaderboardWidget.appex/Info.plist"

    /// A new, empty temporary directory.
    init() throws {
        root = NSTemporaryDirectory() + "sandglass-bundle-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    /// Deletes the temporary directory.
    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }

    var appPath: String { root + "/" + appName }

    /// The absolute path of `relative` (a path under `root`).
    func path(_ relative: String) -> String { root + "/" + relative }

    /// Writes `contents` at `relative`, creating directories.
    func write(_ contents: String, to relative: String) throws {
        try write(Data(contents.utf8), to: relative)
    }

    /// Writes `data` at `relative`, creating directories.
    func write(_ data: Data, to relative: String) throws {
        let url = URL(fileURLWithPath: path(relative))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    /// Writes `dictionary` as a property list at `relative` (XML unless told).
    func writePlist(_ dictionary: [String: Any], to relative: String, format: PropertyListSerialization.PropertyListFormat = .xml) throws {
        try write(PropertyListSerialization.data(fromPropertyList: dictionary, format: format, options: 0), to: relative)
    }

    /// Copies `/bin/true` to `relative` with `mode`.
    func installExecutable(at relative: String, mode: Int = 0o755) throws {
        let destination = path(relative)
        try FileManager.default.createDirectory(
            atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/bin/true", toPath: destination)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: destination)
    }

    /// The app's Info.plist of the standard bundle.
    var appInfo: [String: Any] {
        ["CFBundleIdentifier": appIdentifier, "CFBundleName": "Leaderboard", "CFBundlePackageType": "APPL"]
    }

    /// The widget extension's Info.plist of the standard bundle.
    var widgetInfo: [String: Any] {
        [
            "CFBundleIdentifier": widgetIdentifier,
            "CFBundleExecutable": "LeaderboardWidget",
            "NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"]
        ]
    }

    /// Writes the standard bundle: `Leaderboard.app` with one WidgetKit extension, each
    /// Info.plist changed by its closure first.
    func writeStandardBundle(
        app editApp: (inout [String: Any]) -> Void = { _ in },
        widget editWidget: (inout [String: Any]) -> Void = { _ in }
    ) throws {
        var app = appInfo
        editApp(&app)
        var widget = widgetInfo
        editWidget(&widget)
        try writePlist(app, to: "Leaderboard.app/Info.plist")
        try writePlist(widget, to: "Leaderboard.app/PlugIns/LeaderboardWidget.appex/Info.plist")
        try installExecutable(at: "Leaderboard.app/PlugIns/LeaderboardWidget.appex/LeaderboardWidget")
    }

    /// The error loading `path` (the app by default) throws, or `nil` when it loads.
    func loadError(_ path: String? = nil) -> BundleError? {
        do {
            _ = try BundleLoader.load(path ?? appPath)
            return nil
        } catch {
            return error
        }
    }
}

extension Dictionary where Key == String, Value == Any {
    /// Sets `value` at `key` inside the nested dictionary at `outer` (creating it).
    mutating func set(_ value: Any?, at key: String, in outer: String) {
        var inner = self[outer] as? [String: Any] ?? [:]
        inner[key] = value
        self[outer] = inner
    }
}

/// A property-list value for parameterized tests (`Any` is not `Sendable`).
enum TestPlistValue: Sendable, CustomStringConvertible {
    case absent
    case string(String)
    case integer(Int)
    case real(Double)
    case bool(Bool)
    case strings([String])

    /// The value to put in a dictionary; `nil` removes the key.
    var value: Any? {
        switch self {
        case .absent: nil
        case .string(let s): s
        case .integer(let i): i
        case .real(let d): d
        case .bool(let b): b
        case .strings(let a): a
        }
    }

    var description: String { value.map { "\($0)" } ?? "absent" }
}

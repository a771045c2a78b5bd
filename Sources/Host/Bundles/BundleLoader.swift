import Foundation

/// Reads an app bundle in Apple's layout and refuses a malformed one with a ``BundleError``
/// naming the file and the key.
///
/// ```
/// Leaderboard.app/
///   Info.plist                          CFBundleIdentifier, NSLocation…UsageDescription
///   PlugIns/LeaderboardWidget.appex/
///     Info.plist                        CFBundleIdentifier, CFBundleExecutable, NSExtension,
///                                       NSWidgetWantsLocation, SandglassLimits
///     LeaderboardWidget                 the executable
/// ```
///
/// What is checked, in order: the path is a directory named `*.app`; its `Info.plist` is a
/// property list (XML, binary or OpenStep) whose top level is a dictionary with a valid
/// `CFBundleIdentifier`; `PlugIns/` holds at least one `.appex`; and for each `.appex`, in
/// name order, everything `ExtensionBundleReader` checks. Two extensions with the same
/// identifier are refused. Other entries of `PlugIns/` (not ending in `.appex`) are ignored.
public enum BundleLoader {
    /// The app's keys that hold a location purpose string, either of which lets an extension
    /// set `NSWidgetWantsLocation`.
    public static let widgetLocationPurposeKeys = [
        "NSLocationWhenInUseUsageDescription", "NSLocationAlwaysAndWhenInUseUsageDescription"
    ]

    /// Loads and validates the app bundle at `path`.
    public static func load(_ path: String) throws(BundleError) -> AppBundle {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let appPath = url.path
        let appName = url.lastPathComponent
        guard appName.hasSuffix(".app"), appName.count > ".app".count else {
            throw BundleError(file: path, message: "is not an app bundle: its name must end in .app, e.g. Leaderboard.app")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: appPath, isDirectory: &isDirectory) else {
            throw BundleError(file: path, message: "does not exist; pass the path of an app bundle directory (sandglass bundle makes one)")
        }
        guard isDirectory.boolValue else {
            throw BundleError(file: path, message: "is not a directory; an app bundle is a directory holding Info.plist and PlugIns/")
        }

        let info = try PropertyListDictionary.read(
            appPath + "/Info.plist", file: appName + "/Info.plist",
            remedy: "an app bundle needs an Info.plist with at least CFBundleIdentifier")
        let identifier = try info.requiredString(
            "CFBundleIdentifier",
            remedy: "add the app's bundle identifier, e.g. <key>CFBundleIdentifier</key><string>com.example.Leaderboard</string>")
        if let problem = BundleIdentifierRules.problem(with: identifier) {
            throw info.error("CFBundleIdentifier", "is \(PropertyListValue.quoted(identifier)); it \(problem)")
        }
        let appStem = String(appName.dropLast(".app".count))
        let bundleDisplayName = nonEmpty(try info.string("CFBundleDisplayName"))
        let bundleName = nonEmpty(try info.string("CFBundleName"))
        let displayName = bundleDisplayName ?? bundleName ?? appStem

        var purposes: [String: String] = [:]
        for key in info.values.keys.sorted() where key.hasPrefix("NSLocation") && key.hasSuffix("UsageDescription") {
            purposes[key] = try info.string(key)
        }
        let app = AppContext(path: appPath, name: appName, bundleIdentifier: identifier, info: info, purposeStrings: purposes)

        var extensions: [ExtensionBundle] = []
        var fileOfIdentifier: [String: String] = [:]
        for appexName in try extensionDirectoryNames(in: app) {
            let appex = try ExtensionBundleReader.read(appexName, in: app, appGroupsBefore: extensions.flatMap(\.appGroups))
            if let first = fileOfIdentifier[appex.bundleIdentifier] {
                throw BundleError(
                    file: app.relative(appex.infoPlistPath), key: "CFBundleIdentifier",
                    message:
                        "CFBundleIdentifier is \(PropertyListValue.quoted(appex.bundleIdentifier)), the same as in \(first); every extension needs its own identifier"
                )
            }
            fileOfIdentifier[appex.bundleIdentifier] = app.relative(appex.infoPlistPath)
            extensions.append(appex)
        }
        let ownGroups = try Entitlements.appGroups(in: appPath, shown: appName, before: extensions.flatMap(\.appGroups))
        return AppBundle(
            path: appPath, infoPlistPath: appPath + "/Info.plist", bundleIdentifier: identifier,
            displayName: displayName, locationPurposeStrings: purposes, extensions: extensions, ownAppGroups: ownGroups)
    }

    /// The names of the `.appex` entries of `PlugIns/`, sorted; at least one.
    private static func extensionDirectoryNames(in app: AppContext) throws(BundleError) -> [String] {
        let plugIns = app.path + "/PlugIns"
        let file = app.name + "/PlugIns"
        let remedy = "put each widget extension in PlugIns/Name.appex with its Info.plist and executable (sandglass bundle does this)"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: plugIns, isDirectory: &isDirectory) else {
            throw BundleError(file: file, message: "is missing: the app contains no extension; \(remedy)")
        }
        guard isDirectory.boolValue else {
            throw BundleError(file: file, message: "is not a directory; \(remedy)")
        }
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: plugIns)
        } catch {
            throw BundleError(file: file, message: "cannot be listed (\(error.localizedDescription)); check its permissions")
        }
        let names = entries.filter { $0.hasSuffix(".appex") && $0.count > ".appex".count }.sorted()
        guard !names.isEmpty else {
            throw BundleError(file: file, message: "holds no .appex: the app contains no extension; \(remedy)")
        }
        return names
    }

    private static func nonEmpty(_ s: String?) -> String? {
        guard let s, !s.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return s
    }
}

/// What reading an extension needs to know about its containing app.
struct AppContext {
    /// The `.app` directory, absolute.
    let path: String
    /// The `.app` directory's name, the first component of every file named in errors.
    let name: String
    let bundleIdentifier: String
    let info: PropertyListDictionary
    let purposeStrings: [String: String]

    /// `absolutePath` relative to the directory containing the app: `Leaderboard.app/PlugIns/…`.
    func relative(_ absolutePath: String) -> String {
        absolutePath.hasPrefix(path + "/") ? name + absolutePath.dropFirst(path.count) : absolutePath
    }
}

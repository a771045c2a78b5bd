import Foundation

/// Builds an app bundle in Apple's layout from a built executable and Info.plist files:
/// what `sandglass bundle --executable PATH --info Info.plist [--app-info Info.plist] -o X.app` does.
///
/// The result:
///
/// ```
/// X.app/
///   Info.plist                     a copy of appInfo, or generated (see below)
///   .sandglass-bundle              marker: this directory was made by the assembler
///   PlugIns/<CFBundleExecutable>.appex/
///     Info.plist                   a copy of extensionInfo
///     <CFBundleExecutable>         a copy of executable, mode 0755
///     <CFBundleExecutable>.entitlements   a copy of entitlements, when given (app groups)
/// ```
///
/// Without `appInfo`, the app's Info.plist is generated with `CFBundleIdentifier` = the
/// extension's identifier minus its last component (`com.example.Leaderboard.Widget` →
/// `com.example.Leaderboard`), `CFBundleName` = the output's name without `.app`,
/// `CFBundlePackageType` = `APPL`; an extension that sets `NSWidgetWantsLocation` then needs
/// `appInfo`, since only the app can declare the location purpose string.
///
/// **Overwriting.** The output is written only when it does not exist, is an empty
/// directory, or holds the ``markerName`` file, i.e. was made by an earlier assembly; any other
/// existing output is refused, so a hand-made bundle or an unrelated directory is never
/// replaced. The bundle is assembled and validated with ``BundleLoader`` in a staging
/// directory next to the output, and only a valid bundle replaces the output: a failed
/// assembly leaves the output as it was.
public enum BundleAssembler {
    /// The file inside an assembled `.app` that allows a later assembly to replace it.
    public static let markerName = ".sandglass-bundle"

    /// Assembles the bundle, validates it with ``BundleLoader/load(_:)`` and returns it.
    ///
    /// - Throws: ``BundleError`` naming the offending file: an input as given, the output, or
    ///   a file of the assembled bundle relative to the output's parent.
    public static func assemble(
        executable: String, extensionInfo: String, appInfo: String?, entitlements: String? = nil,
        output: String
    ) throws -> AppBundle {
        let outputURL = URL(fileURLWithPath: output).standardizedFileURL
        let appName = outputURL.lastPathComponent
        guard appName.hasSuffix(".app"), appName.count > ".app".count else {
            throw BundleError(file: output, message: "is not an app bundle name: the output must end in .app, e.g. -o Leaderboard.app")
        }

        let extensionData = try readFile(extensionInfo, what: "the extension's Info.plist (--info)")
        let extensionPlist = try PropertyListDictionary.parse(extensionData, file: extensionInfo)
        let executableName = try extensionPlist.requiredString(
            "CFBundleExecutable", remedy: "add the name the executable gets in the bundle, e.g. <string>LeaderboardWidget</string>")
        guard !executableName.contains("/"), executableName != ".", executableName != ".." else {
            throw extensionPlist.error(
                "CFBundleExecutable", "is \(PropertyListValue.quoted(executableName)); it must be a file name, without a slash")
        }
        let extensionIdentifier = try extensionPlist.requiredString(
            "CFBundleIdentifier", remedy: "add the extension's bundle identifier, e.g. <string>com.example.Leaderboard.Widget</string>")
        let sourceExecutable = try checkExecutableSource(executable)

        let appData: Data
        if let appInfo {
            appData = try readFile(appInfo, what: "the app's Info.plist (--app-info)")
            _ = try PropertyListDictionary.parse(appData, file: appInfo)
        } else {
            appData = try generatedAppInfo(
                extensionIdentifier: extensionIdentifier, plist: extensionPlist,
                name: String(appName.dropLast(".app".count)))
        }

        let entitlementsData = try entitlements.map { path throws(BundleError) in
            let data = try readFile(path, what: "the extension's entitlements (--entitlements)")
            _ = try PropertyListDictionary.parse(data, file: path)
            return data
        }

        let fileManager = FileManager.default
        let outputPath = outputURL.path
        let replacing = try checkOutput(outputPath, as: output)
        let parent = outputURL.deletingLastPathComponent().path
        do {
            try fileManager.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw BundleError(
                file: output, message: "cannot be created: its directory \(parent) cannot be made (\(error.localizedDescription))")
        }

        let staging = parent + "/.sandglass-bundle-" + UUID().uuidString
        defer { try? fileManager.removeItem(atPath: staging) }
        let stagedApp = staging + "/" + appName
        let appexPath = stagedApp + "/PlugIns/" + executableName + ".appex"
        do {
            try fileManager.createDirectory(atPath: appexPath, withIntermediateDirectories: true)
            try appData.write(to: URL(fileURLWithPath: stagedApp + "/Info.plist"))
            try Data("Assembled by `sandglass bundle`, which may replace this directory.\n".utf8)
                .write(to: URL(fileURLWithPath: stagedApp + "/" + markerName))
            try extensionData.write(to: URL(fileURLWithPath: appexPath + "/Info.plist"))
            try fileManager.copyItem(atPath: sourceExecutable, toPath: appexPath + "/" + executableName)
            try fileManager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: appexPath + "/" + executableName)
            try entitlementsData?.write(to: URL(fileURLWithPath: appexPath + "/" + executableName + ".entitlements"))
        } catch {
            throw BundleError(
                file: output, message: "cannot be written (\(error.localizedDescription)); check the permissions of \(parent)")
        }

        do {
            _ = try BundleLoader.load(stagedApp)
        } catch let error {
            if appInfo == nil, error.file == appName + "/Info.plist" {
                var explained = error
                explained.message += " (this Info.plist was generated: pass --app-info with the containing app's Info.plist)"
                throw explained
            }
            throw error
        }

        do {
            if replacing { try fileManager.removeItem(atPath: outputPath) }
            try fileManager.moveItem(atPath: stagedApp, toPath: outputPath)
        } catch {
            throw BundleError(file: output, message: "cannot be replaced (\(error.localizedDescription)); check its permissions")
        }
        return try BundleLoader.load(outputPath)
    }

    /// The contents of an input file, or an error naming it.
    private static func readFile(_ path: String, what: String) throws(BundleError) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw BundleError(file: path, message: "does not exist; pass \(what)")
        }
        guard !isDirectory.boolValue else {
            throw BundleError(file: path, message: "is a directory; pass \(what)")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw BundleError(file: path, message: "cannot be read (\(error.localizedDescription)); check its permissions")
        }
    }

    /// The executable to copy, symbolic links resolved: it must be an existing regular file.
    private static func checkExecutableSource(_ path: String) throws(BundleError) -> String {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory) else {
            throw BundleError(
                file: path,
                message: "does not exist; pass the built extension executable with --executable (swift build prints where it is)")
        }
        let type = (try? FileManager.default.attributesOfItem(atPath: resolved))?[.type] as? FileAttributeType
        guard !isDirectory.boolValue, type == nil || type == .typeRegular else {
            throw BundleError(file: path, message: "is not a regular file; pass the built extension executable with --executable")
        }
        return resolved
    }

    /// Whether an existing output will be replaced; refuses an output that is not ours.
    private static func checkOutput(_ outputPath: String, as given: String) throws(BundleError) -> Bool {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: outputPath, isDirectory: &isDirectory) else { return false }
        guard isDirectory.boolValue else {
            throw BundleError(file: given, message: "exists and is not a directory; remove it or choose another output")
        }
        let contents = (try? fileManager.contentsOfDirectory(atPath: outputPath)) ?? []
        guard contents.isEmpty || contents.contains(markerName) else {
            throw BundleError(
                file: given,
                message: "exists and was not made by sandglass bundle (it has no \(markerName) file); remove it or choose another output")
        }
        return true
    }

    /// An app Info.plist for an extension given alone.
    private static func generatedAppInfo(
        extensionIdentifier: String, plist: PropertyListDictionary, name: String
    ) throws(BundleError) -> Data {
        let components = extensionIdentifier.split(separator: ".", omittingEmptySubsequences: false)
        guard components.count >= 2, components.allSatisfy({ !$0.isEmpty }) else {
            throw plist.error(
                "CFBundleIdentifier",
                "is \(PropertyListValue.quoted(extensionIdentifier)); without --app-info the app's identifier is this minus its last component, so it needs at least two, e.g. com.example.Leaderboard.Widget (or pass --app-info)"
            )
        }
        let info: [String: Any] = [
            "CFBundleIdentifier": components.dropLast().joined(separator: "."),
            "CFBundleName": name,
            "CFBundlePackageType": "APPL",
            "CFBundleInfoDictionaryVersion": "6.0"
        ]
        do {
            return try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
        } catch {
            throw BundleError(
                file: name + ".app/Info.plist", message: "cannot be generated (\(error.localizedDescription)); pass --app-info")
        }
    }
}

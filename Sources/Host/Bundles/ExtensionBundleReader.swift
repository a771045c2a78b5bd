import Foundation

/// Reads and validates one `PlugIns/Name.appex` of an app.
///
/// Checks: the `.appex` is a directory with an Info.plist dictionary; `CFBundleIdentifier` is
/// valid and starts with the app's identifier and a period; `CFBundleExecutable` is a plain
/// file name whose file exists in the `.appex`, is a regular file and has an execute bit;
/// `NSExtension` is a dictionary whose `NSExtensionPointIdentifier` is one of
/// ``ExtensionPoint``; a Today extension names `NSExtensionPrincipalClass` as
/// `Module.ClassName` (a WidgetKit extension's principal class, if any, is ignored: its entry
/// point is `@main`); `NSWidgetWantsLocation` is a Boolean, and when true the app declares a
/// non-empty `NSLocationWhenInUseUsageDescription` or
/// `NSLocationAlwaysAndWhenInUseUsageDescription`; `SandglassLimits` is valid; its
/// entitlements file, if any, is valid (``Entitlements``).
enum ExtensionBundleReader {
    static func read(_ appexName: String, in app: AppContext, appGroupsBefore: [String] = []) throws(BundleError) -> ExtensionBundle {
        let path = app.path + "/PlugIns/" + appexName
        let file = app.relative(path)
        let stem = String(appexName.dropLast(".appex".count))
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw BundleError(file: file, message: "is not a directory; an extension is a directory holding Info.plist and its executable")
        }
        let info = try PropertyListDictionary.read(
            path + "/Info.plist", file: file + "/Info.plist",
            remedy: "an extension needs an Info.plist with CFBundleIdentifier, CFBundleExecutable and NSExtension")

        let example = "\(app.bundleIdentifier).\(exampleComponent(stem))"
        let identifier = try info.requiredString(
            "CFBundleIdentifier", remedy: "add the extension's bundle identifier, e.g. <string>\(example)</string>")
        if let problem = BundleIdentifierRules.problem(with: identifier) {
            throw info.error("CFBundleIdentifier", "is \(PropertyListValue.quoted(identifier)); it \(problem)")
        }
        guard BundleIdentifierRules.isEmbeddable(identifier, in: app.bundleIdentifier) else {
            throw info.error(
                "CFBundleIdentifier",
                "is \(PropertyListValue.quoted(identifier)); an extension's identifier must start with its app's identifier (\(app.bundleIdentifier)) followed by a period, e.g. \(example)"
            )
        }

        let executableName = try info.requiredString(
            "CFBundleExecutable", remedy: "add the name of the extension's executable, e.g. <string>\(stem)</string>")
        guard !executableName.contains("/"), executableName != ".", executableName != ".." else {
            throw info.error(
                "CFBundleExecutable",
                "is \(PropertyListValue.quoted(executableName)); it must be a file name inside the .appex, without a slash")
        }
        let executablePath = path + "/" + executableName
        try checkExecutable(executablePath, named: executableName, info: info, app: app)

        guard let nsExtension = try info.dictionary("NSExtension", expected: "holding NSExtensionPointIdentifier") else {
            throw info.error(
                "NSExtension",
                "is missing; add a dictionary whose NSExtensionPointIdentifier is \(ExtensionPoint.widgetKit) or \(ExtensionPoint.today)")
        }
        let pointRemedy = "a widget extension needs \(ExtensionPoint.widgetKit) or \(ExtensionPoint.today)"
        let pointIdentifier = try nsExtension.requiredString("NSExtensionPointIdentifier", remedy: pointRemedy)
        guard let point = ExtensionPoint(rawValue: pointIdentifier) else {
            throw nsExtension.error("NSExtensionPointIdentifier", "is \(PropertyListValue.quoted(pointIdentifier)); \(pointRemedy)")
        }

        var principalClass: String?
        if point == .today {
            let module = isIdentifier(executableName) ? executableName : "MyWidget"
            let classExample = "\(module).TodayViewController"
            let name = try nsExtension.requiredString(
                "NSExtensionPrincipalClass",
                remedy: "a Today extension names its NCWidgetProviding view controller as Module.ClassName, e.g. \(classExample)")
            guard isPrincipalClassName(name) else {
                let hint = name.contains("$(") ? " (Xcode build settings are not expanded here: write the module name)" : ""
                throw nsExtension.error(
                    "NSExtensionPrincipalClass",
                    "is \(PropertyListValue.quoted(name)); it must be Module.ClassName, as NSClassFromString needs it, e.g. \(classExample)\(hint)"
                )
            }
            principalClass = name
        }

        let wantsLocation = try info.bool("NSWidgetWantsLocation") ?? false
        if wantsLocation {
            try checkLocationPurpose(of: app, extensionFile: info.file)
        }

        var limits = LimitOverrides()
        if let dictionary = try info.dictionary(
            SandglassLimits.key, expected: "of limits, keys among \(SandglassLimits.knownKeys.joined(separator: ", "))")
        {
            limits = try SandglassLimits.parse(dictionary)
        }

        let appGroups = try Entitlements.appGroups(in: path, shown: file, before: appGroupsBefore)

        return ExtensionBundle(
            path: path, infoPlistPath: path + "/Info.plist", bundleIdentifier: identifier,
            executableName: executableName, executablePath: executablePath, point: point,
            principalClass: principalClass, wantsLocation: wantsLocation, limits: limits, appGroups: appGroups)
    }

    /// The executable must exist, be a regular file (after symbolic links) and have an execute bit.
    private static func checkExecutable(
        _ executablePath: String, named name: String, info: PropertyListDictionary, app: AppContext
    ) throws(BundleError) {
        let shown = app.relative(executablePath)
        let prefix = "is \(PropertyListValue.quoted(name)), but \(shown)"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: executablePath, isDirectory: &isDirectory) else {
            throw info.error("CFBundleExecutable", "\(prefix) does not exist; copy the built executable there or correct the name")
        }
        guard !isDirectory.boolValue else {
            throw info.error("CFBundleExecutable", "\(prefix) is a directory; it must be the executable file")
        }
        let attributes = try? FileManager.default.attributesOfItem(
            atPath: URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().path)
        if let type = attributes?[.type] as? FileAttributeType, type != .typeRegular {
            throw info.error("CFBundleExecutable", "\(prefix) is not a regular file; it must be the executable file")
        }
        let mode = (attributes?[.posixPermissions] as? NSNumber)?.intValue ?? 0
        guard mode & 0o111 != 0, FileManager.default.isExecutableFile(atPath: executablePath) else {
            throw info.error("CFBundleExecutable", "\(prefix) is not executable (mode \(String(mode & 0o7777, radix: 8))); chmod 755 it")
        }
    }

    /// An extension that wants location needs the app's purpose string, as on Apple platforms.
    private static func checkLocationPurpose(of app: AppContext, extensionFile: String) throws(BundleError) {
        let keys = BundleLoader.widgetLocationPurposeKeys
        let present = keys.compactMap { key in app.purposeStrings[key].map { (key, $0) } }
        if present.contains(where: { !$0.1.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }) { return }
        let key = present.first?.0 ?? keys[0]
        let state = present.isEmpty ? "is missing, and so is \(keys[1])" : "is empty"
        throw app.info.error(
            key,
            "\(state), but \(extensionFile) sets NSWidgetWantsLocation; add \(keys[0]) with the purpose string shown when the app asks for location, e.g. <string>Shows the scores near you.</string>"
        )
    }

    /// `Module.ClassName`: exactly two identifiers joined by a period.
    static func isPrincipalClassName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { isIdentifier(String($0)) }
    }

    /// A Swift identifier: a letter or underscore, then letters, digits or underscores.
    static func isIdentifier(_ s: String) -> Bool {
        guard let first = s.first, first.isLetter || first == "_" else { return false }
        return s.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    /// A bundle-identifier component for examples, from the `.appex` name.
    private static func exampleComponent(_ stem: String) -> String {
        let cleaned = String(stem.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        return cleaned.isEmpty ? "Widget" : cleaned
    }
}

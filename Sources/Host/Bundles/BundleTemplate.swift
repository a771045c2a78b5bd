import Foundation

/// Fills an app bundle template — Apple's layout with its Info.plist files but without
/// executables, as `Examples/Bundles/*.app` are — with executables from a build directory.
///
/// For every `PlugIns/*.appex` of the template, the file named by its `CFBundleExecutable` is
/// copied from `executables` (mode 0755); extensions that name the same executable share one
/// copy through hard links. The output is replaced only when it is missing or was
/// made by this function or ``BundleAssembler`` (it carries ``BundleAssembler/markerName``).
public enum BundleTemplate {
    /// Copies `template` to `output`, adds the executables and validates the result.
    public static func fill(template: String, executables: String, output: String) throws -> AppBundle {
        let fm = FileManager.default
        let templateURL = URL(fileURLWithPath: template).standardizedFileURL
        let outputURL = URL(fileURLWithPath: output).standardizedFileURL
        guard fm.fileExists(atPath: templateURL.appendingPathComponent("Info.plist").path) else {
            throw BundleError(file: template, message: "is not an app bundle template: it has no Info.plist")
        }
        if fm.fileExists(atPath: outputURL.path) {
            let marker = outputURL.appendingPathComponent(BundleAssembler.markerName).path
            guard fm.fileExists(atPath: marker) else {
                throw BundleError(file: output, message: "exists and was not made by sandglass bundle; remove it or choose another output")
            }
            try fm.removeItem(at: outputURL)
        }
        try fm.createDirectory(at: outputURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try fm.copyItem(at: templateURL, to: outputURL)
        _ = fm.createFile(atPath: outputURL.appendingPathComponent(BundleAssembler.markerName).path, contents: Data())
        let plugIns = outputURL.appendingPathComponent("PlugIns")
        var placed: [String: String] = [:]
        for appex in (try? fm.contentsOfDirectory(atPath: plugIns.path)) ?? [] where appex.hasSuffix(".appex") {
            let infoPath = plugIns.appendingPathComponent(appex).appendingPathComponent("Info.plist").path
            let info = try PropertyListDictionary.parse(try Data(contentsOf: URL(fileURLWithPath: infoPath)), file: infoPath)
            let name = try info.requiredString("CFBundleExecutable", remedy: "name the extension's executable")
            let source = URL(fileURLWithPath: executables).appendingPathComponent(name).path
            guard fm.isExecutableFile(atPath: source) else {
                throw BundleError(
                    file: infoPath, key: "CFBundleExecutable",
                    message: "names \(name), but \(source) is not an executable file; build it first")
            }
            let destination = plugIns.appendingPathComponent(appex).appendingPathComponent(name).path
            try? fm.removeItem(atPath: destination)
            // Several extensions of one app may share an executable: one copy, hard links to it.
            if let first = placed[name], (try? fm.linkItem(atPath: first, toPath: destination)) != nil { continue }
            try fm.copyItem(atPath: source, toPath: destination)
            try fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: destination)
            placed[name] = destination
        }
        return try BundleLoader.load(outputURL.path)
    }
}

import Foundation

/// An app bundle for embedded extensions: a template's Info.plists (as `Examples/Bundles`
/// holds them), each extension's executable a script that refuses to run, since the embedded
/// backend never runs it.
package struct EmbeddedBundle {
    /// The `.app` directory, in a temporary directory of its own.
    package let path: String

    /// Copies the template `.app` at `template` and puts a placeholder executable in each of its
    /// extensions. Call ``remove()`` when done.
    package init(template: String) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-embedded-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let app = root.appendingPathComponent(URL(fileURLWithPath: template).lastPathComponent)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: template), to: app)
        let plugins = app.appendingPathComponent("PlugIns")
        for appex in (try? FileManager.default.contentsOfDirectory(atPath: plugins.path)) ?? [] where appex.hasSuffix(".appex") {
            let directory = plugins.appendingPathComponent(appex)
            let info = try PropertyListSerialization.propertyList(
                from: Data(contentsOf: directory.appendingPathComponent("Info.plist")), format: nil)
            guard let name = (info as? [String: Any])?["CFBundleExecutable"] as? String else { continue }
            let executable = directory.appendingPathComponent(name)
            try "#!/bin/sh\necho 'an embedded extension: SandglassEmbedded runs it in-process' >&2\nexit 70\n"
                .write(to: executable, atomically: false, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable.path)
        }
        path = app.path
    }

    /// Deletes the bundle and its temporary directory.
    package func remove() {
        try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }
}

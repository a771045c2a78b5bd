import Foundation

/// The host's store of installed apps, as iOS keeps its own copy of every installed bundle:
/// installing places the `.app` in the host's data directory (hard links where the file system
/// allows, copies otherwise), so that the extension's user can reach its executable wherever
/// the original lives, and a rebuild of the original does not change a running installation.
///
/// The store is keyed by the app's bundle identifier (`Bundles/<identifier>/<Name>.app`), never
/// by the folder's name: two apps whose folders share a name keep their own code.
enum BundleStore {
    /// Places `app` (whose bundle identifier is `identifier`) under `store` and returns the path
    /// of the stored copy. A symbolic link in the bundle that leads out of it is refused: the
    /// host would read through it, and the extension could read what it leads to.
    static func place(_ app: String, identifier: String, in store: String) throws -> String {
        let fm = FileManager.default
        let source = URL(fileURLWithPath: app).standardizedFileURL.resolvingSymlinksInPath()
        let slot = URL(fileURLWithPath: store).appendingPathComponent(identifier)
        let destination = slot.appendingPathComponent(source.lastPathComponent)
        try checkLinks(in: source)
        if fm.fileExists(atPath: slot.path) { try fm.removeItem(at: slot) }
        try fm.createDirectory(at: destination, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        guard let walker = fm.enumerator(atPath: source.path) else { return destination.path }
        for case let relative as String in walker {
            let from = source.appendingPathComponent(relative).path
            let to = destination.appendingPathComponent(relative).path
            let type = try fm.attributesOfItem(atPath: from)[.type] as? FileAttributeType
            switch type {
            case .typeDirectory?:
                try fm.createDirectory(atPath: to, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            case .typeSymbolicLink?:
                try fm.createSymbolicLink(atPath: to, withDestinationPath: try fm.destinationOfSymbolicLink(atPath: from))
            default:
                // A link shares the original's mode: an executable closed to others (mode 0700)
                // is copied instead and opened, so the extension's user can run it.
                let mode = (try fm.attributesOfItem(atPath: from)[.posixPermissions] as? Int) ?? 0
                if mode & 0o005 == 0o005 || mode & 0o111 == 0 {
                    do { try fm.linkItem(atPath: from, toPath: to) } catch { try fm.copyItem(atPath: from, toPath: to) }
                } else {
                    try fm.copyItem(atPath: from, toPath: to)
                    try fm.setAttributes([.posixPermissions: mode | 0o055], ofItemAtPath: to)
                }
            }
        }
        return destination.path
    }

    /// Throws when a symbolic link in `bundle` resolves to a place outside it.
    static func checkLinks(in bundle: URL) throws(BundleError) {
        let fm = FileManager.default
        let root = bundle.path
        guard let walker = fm.enumerator(atPath: root) else { return }
        for case let relative as String in walker {
            let path = root + "/" + relative
            guard let target = try? fm.destinationOfSymbolicLink(atPath: path) else { continue }
            let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            if resolved != root && !resolved.hasPrefix(root + "/") {
                throw BundleError(
                    file: bundle.lastPathComponent + "/" + relative,
                    message: """
                        is a symbolic link to \(target.debugDescription), outside the bundle; \
                        put the file itself in the bundle (sandglass bundle copies executables)
                        """)
            }
        }
    }
}

import Foundation

/// The host's store of installed apps, as iOS keeps its own copy of every installed bundle:
/// installing places the `.app` in the host's data directory (hard links where the file system
/// allows, copies otherwise), so that the extension's user can reach its executable wherever
/// the original lives, and a rebuild of the original does not change a running installation.
enum BundleStore {
    /// Places `app` under `store` and returns the path of the stored copy.
    static func place(_ app: String, in store: String) throws -> String {
        let fm = FileManager.default
        let source = URL(fileURLWithPath: app).standardizedFileURL
        let destination = URL(fileURLWithPath: store).appendingPathComponent(source.lastPathComponent)
        if fm.fileExists(atPath: destination.path) { try fm.removeItem(at: destination) }
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
}

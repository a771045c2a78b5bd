import Foundation
import SandglassHost

/// Removes a command's temporary data directory once its host has shut down, by descriptor
/// (``DirectoryTree/remove(_:)``: extensions wrote in it), and says on standard error what
/// could not go.
func removeTemporaryDataDirectory(_ path: String) {
    let left = DirectoryTree.remove(path)
    guard let first = left.first else { return }
    FileHandle.standardError.write(
        Data(
            "sandglass: \(left.count) paths of the temporary data directory \(path) could not be removed, the first \(first); remove them by hand\n"
                .utf8))
}

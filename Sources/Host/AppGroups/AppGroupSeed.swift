import Foundation
import Glibc

/// Copies a directory of the user's into an app group's container (`--app-group group.x=DIR`),
/// through ``GroupFiles`` (never following a link in the container). The source is read with
/// `lstat`: a symbolic link or a special file in it is refused, naming it.
enum AppGroupSeed {
    static func copy(_ source: String, into group: AppGroup) throws {
        var st = stat()
        guard lstat(source, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else {
            throw AppGroupError(group.identifier, "the seed \(source) is not a directory")
        }
        try copyDirectory(source, relative: "", into: group)
    }

    private static func copyDirectory(_ source: String, relative: String, into group: AppGroup) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: source).sorted()
        for name in names {
            let path = source + "/" + name
            let target = relative.isEmpty ? name : relative + "/" + name
            var st = stat()
            guard lstat(path, &st) == 0 else { throw AppGroupError.errno(group.identifier, "examining the seed's \(path)") }
            switch st.st_mode & S_IFMT {
            case S_IFDIR:
                try makeDirectory(target, in: group)
                try copyDirectory(path, relative: target, into: group)
            case S_IFREG:
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw AppGroupError(group.identifier, "the seed's \(path) cannot be read")
                }
                try group.write(data, to: target)
            case S_IFLNK:
                throw AppGroupError(group.identifier, "the seed's \(path) is a symbolic link; copy the file it leads to instead")
            default:
                throw AppGroupError(group.identifier, "the seed's \(path) is not a regular file or a directory")
            }
        }
    }

    private static func makeDirectory(_ relative: String, in group: AppGroup) throws {
        let parts = try GroupFiles.components(relative, group: group.identifier)
        let rootFD = try GroupFiles.openRoot(group.path, group: group.identifier)
        defer { close(rootFD) }
        close(try GroupFiles.directory(parts[...], in: rootFD, creating: group.ownership, group: group.identifier))
    }
}

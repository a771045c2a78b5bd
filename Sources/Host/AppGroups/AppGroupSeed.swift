import Foundation
import Glibc

/// Copies a directory of the user's into an app group's container (`--app-group group.x=DIR`),
/// through ``GroupFiles`` (never following a link in the container). The source is walked by
/// descriptor — it may be a place someone else can write, such as a previous run's container —
/// so that a link swapped in is never followed and a FIFO never waited on: a symbolic link or a
/// special file in it is refused, naming it, and a file is read only up to ``AppGroup/readLimit``.
enum AppGroupSeed {
    static func copy(_ source: String, into group: AppGroup) throws {
        let fd = open(source, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw AppGroupError(group.identifier, "the seed \(source) is not a directory") }
        defer { close(fd) }
        try copyDirectory(fd, shown: source, relative: "", into: group, depth: 0)
    }

    /// Directories of a seed, nested, at most.
    static let maximumDepth = 64

    private static func copyDirectory(_ fd: Int32, shown: String, relative: String, into group: AppGroup, depth: Int) throws {
        guard depth < maximumDepth else {
            throw AppGroupError(group.identifier, "the seed's \(shown) is nested more than \(maximumDepth) directories deep")
        }
        guard let names = DirectoryTree.names(of: fd) else { throw AppGroupError.errno(group.identifier, "listing the seed's \(shown)") }
        for name in names.sorted() {
            let path = shown + "/" + name
            let target = relative.isEmpty ? name : relative + "/" + name
            var st = stat()
            guard fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 else {
                throw AppGroupError.errno(group.identifier, "examining the seed's \(path)")
            }
            switch st.st_mode & S_IFMT {
            case S_IFDIR:
                let sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard sub >= 0 else { throw AppGroupError.errno(group.identifier, "opening the seed's \(path)") }
                defer { close(sub) }
                try makeDirectory(target, in: group)
                try copyDirectory(sub, shown: path, relative: target, into: group, depth: depth + 1)
            case S_IFREG:
                let file = openat(fd, name, RegularFile.openFlags)
                guard file >= 0 else { throw AppGroupError.errno(group.identifier, "opening the seed's \(path)") }
                defer { close(file) }
                let data: Data
                do {
                    data = try RegularFile.contents(of: file, limit: AppGroup.readLimit)
                } catch {
                    switch error {
                    case .notRegular(let mode):
                        throw AppGroupError(
                            group.identifier, "the seed's \(path) is \(RegularFile.kind(of: mode)), not a regular file or a directory")
                    case .tooLarge(let size):
                        throw AppGroupError(
                            group.identifier,
                            "the seed's \(path) is \(size) bytes, over the \(AppGroup.readLimit >> 20) MiB a seed's file may hold")
                    case .unreadable(let code):
                        throw AppGroupError(group.identifier, "the seed's \(path) cannot be read: \(String(cString: strerror(code)))")
                    }
                }
                try group.write(data, to: target)
            case S_IFLNK:
                throw AppGroupError(group.identifier, "the seed's \(path) is a symbolic link; copy the file it leads to instead")
            default:
                throw AppGroupError(
                    group.identifier, "the seed's \(path) is \(RegularFile.kind(of: st.st_mode)), not a regular file or a directory")
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

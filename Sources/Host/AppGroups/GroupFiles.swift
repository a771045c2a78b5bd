import Foundation
import Glibc

/// Paths inside an app group's directory, walked one component at a time from a directory
/// descriptor with `O_NOFOLLOW`: the root host never follows a link an extension planted, and
/// never acts on a path by name. Files are written to a fresh temporary name (`O_EXCL`) and
/// renamed over the target, so a link planted at the target is replaced, never written through.
enum GroupFiles {
    /// Components of `relative`, refusing absolute paths, `.` and `..`.
    static func components(_ relative: String, group: String) throws(AppGroupError) -> [String] {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard !relative.hasPrefix("/"), !parts.contains("."), !parts.contains("..") else {
            throw AppGroupError(group, "\(relative.debugDescription) is not a path inside the group's container (no leading /, no . or ..)")
        }
        return parts
    }

    /// Opens the directory `root` (the group's container, made by the host).
    static func openRoot(_ root: String, group: String) throws(AppGroupError) -> Int32 {
        let fd = open(root, O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_RDONLY)
        guard fd >= 0 else { throw .errno(group, "opening the group's container \(root)") }
        return fd
    }

    /// The directory `components` below `parent` (a descriptor the caller closes), made with
    /// `ownership` when missing if one is given. A link or a file standing where a directory
    /// belongs is then removed and a directory made in its place; without `ownership` the walk
    /// fails there. Returns a new descriptor.
    static func directory(
        _ components: ArraySlice<String>, in parent: Int32, creating ownership: GroupOwnership?,
        group: String
    ) throws(AppGroupError) -> Int32 {
        var current = fcntl(parent, F_DUPFD_CLOEXEC, 0)
        guard current >= 0 else { throw .errno(group, "dup") }
        for name in components {
            var next = openat(current, name, O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_RDONLY)
            if next < 0, let ownership {
                if errno == ELOOP || errno == ENOTDIR {
                    // A link or a file where a directory belongs: not followed, replaced.
                    _ = unlinkat(current, name, 0)
                }
                if mkdirat(current, name, 0o700) == 0 {
                    next = openat(current, name, O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_RDONLY)
                    if next >= 0 { adopt(next, ownership, directory: true) }
                } else if errno == EEXIST {
                    next = openat(current, name, O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_RDONLY)
                }
            }
            guard next >= 0 else {
                let error = AppGroupError.errno(group, "opening directory \(name.debugDescription)")
                close(current)
                throw error
            }
            close(current)
            current = next
        }
        return current
    }

    /// The directory holding `relative` (a new descriptor, the caller closes it), made as
    /// needed with `ownership` when given, and the name of the last component.
    private static func parent(
        of relative: String, root: String, creating ownership: GroupOwnership?,
        group: String
    ) throws(AppGroupError) -> (dir: Int32, name: String) {
        var parts = try components(relative, group: group)
        guard let name = parts.popLast() else { throw AppGroupError(group, "the path is empty") }
        let rootFD = try openRoot(root, group: group)
        defer { close(rootFD) }
        return (try directory(parts[...], in: rootFD, creating: ownership, group: group), name)
    }

    /// Gives a descriptor the group's owner and mode.
    static func adopt(_ fd: Int32, _ ownership: GroupOwnership, directory: Bool) {
        _ = fchown(fd, ownership.uid, ownership.gid)
        _ = fchmod(fd, directory ? ownership.directoryMode : ownership.fileMode)
    }

    /// Writes `data` to `relative` (its directories made as needed): a new file under a
    /// temporary name, renamed over whatever stands at the name.
    static func write(_ data: Data, to relative: String, root: String, ownership: GroupOwnership, group: String) throws(AppGroupError) {
        let (dir, name) = try parent(of: relative, root: root, creating: ownership, group: group)
        defer { close(dir) }
        let temporary = ".sandglass-\(UInt64.random(in: 0...UInt64.max))"
        let fd = openat(dir, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .errno(group, "creating a file beside \(relative.debugDescription)") }
        var failure: AppGroupError?
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = .errno(group, "writing \(relative.debugDescription)")
                    return
                }
                offset += n
            }
        }
        if failure == nil { adopt(fd, ownership, directory: false) }
        close(fd)
        if failure == nil, renameat(dir, temporary, dir, name) != 0 {
            failure = .errno(group, "renaming the new file to \(relative.debugDescription)")
        }
        if let failure {
            _ = unlinkat(dir, temporary, 0)
            throw failure
        }
    }

    /// The contents of the regular file `relative`, at most `limit` bytes; nil when it does
    /// not exist. A link, a directory, a device or a pipe there is refused (not opened for what
    /// it leads to, and never waited on).
    static func read(_ relative: String, root: String, limit: Int, group: String) throws(AppGroupError) -> Data? {
        let dir: Int32, name: String
        do {
            (dir, name) = try parent(of: relative, root: root, creating: nil, group: group)
        } catch  where error.code == ENOENT {
            return nil
        }
        defer { close(dir) }
        let fd = openat(dir, name, RegularFile.openFlags)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw .errno(group, "opening \(relative.debugDescription)")
        }
        defer { close(fd) }
        do {
            return try RegularFile.contents(of: fd, limit: limit)
        } catch {
            switch error {
            case .notRegular:
                throw AppGroupError(group, "\(relative.debugDescription) is not a regular file", isNotAFile: true)
            case .tooLarge(let size):
                throw AppGroupError(group, "\(relative.debugDescription) is \(size) bytes, over the \(limit)-byte limit the host reads")
            case .unreadable(let code):
                errno = code
                throw .errno(group, "reading \(relative.debugDescription)")
            }
        }
    }

    /// Removes the file (or link) `relative`, or the empty directory; nothing when missing.
    static func remove(_ relative: String, root: String, group: String) throws(AppGroupError) {
        let (dir, name) = try parent(of: relative, root: root, creating: nil, group: group)
        defer { close(dir) }
        if unlinkat(dir, name, 0) != 0 && errno != ENOENT {
            if errno == EISDIR, unlinkat(dir, name, AT_REMOVEDIR) == 0 { return }
            throw .errno(group, "removing \(relative.debugDescription)")
        }
    }

    /// The names in the directory `relative` (`""`: the container), sorted.
    static func list(_ relative: String, root: String, group: String) throws(AppGroupError) -> [String] {
        let parts = try components(relative, group: group)
        let rootFD = try openRoot(root, group: group)
        defer { close(rootFD) }
        let dir = try directory(parts[...], in: rootFD, creating: nil, group: group)
        guard let stream = fdopendir(dir) else {
            close(dir)
            throw .errno(group, "listing \(relative.debugDescription)")
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}

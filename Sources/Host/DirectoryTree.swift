import Glibc

/// A directory tree walked by descriptor: the host lists and removes what extensions wrote
/// without following a symbolic link planted in it and without building a path, so that
/// neither a link nor a path past `PATH_MAX` (directories of 255-byte names, nested) stops it.
public enum DirectoryTree {
    /// The names in the directory open as `fd`, without `.` and `..`; nil when it cannot be
    /// listed.
    static func names(of fd: Int32) -> [String]? {
        let listing = dup(fd)
        guard listing >= 0 else { return nil }
        guard let stream = fdopendir(listing) else {
            close(listing)
            return nil
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes the directory at `path` with everything in it, going on past what it cannot
    /// remove; returns the paths left (empty when all went, or when there was nothing).
    ///
    /// Call it only once nothing writes in the tree any more (the host shut down): a process
    /// still writing could add entries after they were listed.
    @discardableResult
    public static func remove(_ path: String) -> [String] {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return [] }
            // Not a directory (a file, a link): the name goes, not what it leads to.
            return unlink(path) == 0 || errno == ENOENT ? [] : [path]
        }
        var left: [String] = []
        empty(fd, shown: path, &left)
        close(fd)
        if rmdir(path) != 0 && errno != ENOENT { left.append(path) }
        return left
    }

    /// Removes `relativePath` under the directory `root` — a file, or a directory with what it
    /// holds — reached through its parents by descriptor, never through a link: a parent an
    /// extension made a link (its container's `Library/Caches`, to elsewhere) stops the walk.
    /// Returns the paths left.
    @discardableResult
    public static func remove(_ relativePath: String, in root: String) -> [String] {
        var parts = relativePath.split(separator: "/").map(String.init)
        guard let last = parts.popLast() else { return [] }
        var fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        for part in parts where fd >= 0 {
            let next = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            close(fd)
            fd = next
        }
        guard fd >= 0 else { return errno == ENOENT ? [] : [root + "/" + relativePath] }
        defer { close(fd) }
        var info = stat()
        guard fstatat(fd, last, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return [] }
        var left: [String] = []
        let shown = root + "/" + relativePath
        if info.st_mode & S_IFMT == S_IFDIR {
            let sub = openat(fd, last, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if sub >= 0 {
                empty(sub, shown: shown, &left)
                close(sub)
            }
            if unlinkat(fd, last, AT_REMOVEDIR) != 0 && errno != ENOENT { left.append(shown) }
        } else if unlinkat(fd, last, 0) != 0 && errno != ENOENT {
            left.append(shown)
        }
        return left
    }

    /// Removes what the directory open as `fd` (named `shown`) holds.
    private static func empty(_ fd: Int32, shown: String, _ left: inout [String]) {
        guard let names = names(of: fd) else { return left.append(shown) }
        for name in names {
            var info = stat()
            guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                // A directory closed to its owner (mode 0) is opened again for removal: the host's
                // own user owns it when extensions run as that user.
                var sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                if sub < 0 && errno == EACCES && fchmodat(fd, name, 0o700, 0) == 0 {
                    sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                }
                if sub >= 0 {
                    empty(sub, shown: shown + "/" + name, &left)
                    close(sub)
                }
                if unlinkat(fd, name, AT_REMOVEDIR) != 0 && errno != ENOENT { left.append(shown + "/" + name) }
            } else if unlinkat(fd, name, 0) != 0 && errno != ENOENT {
                left.append(shown + "/" + name)
            }
        }
    }
}

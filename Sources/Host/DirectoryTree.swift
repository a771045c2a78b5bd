import CSandbox
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
        // The copy shares the open directory's offset: from the start, however often it was read.
        rewinddir(stream)
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else { return errno == 0 ? names : nil } // an error is not the end
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// Gives the directory `name` in `fd` back to its owner (mode 0700) without following a
    /// link swapped in for it since it was looked at: the directory itself is opened (`O_PATH`,
    /// which needs no permission on it) and changed through that descriptor.
    static func openToOwner(_ fd: Int32, _ name: String) -> Bool {
        let held = openat(fd, name, 0o10000000 /* O_PATH */ | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard held >= 0 else { return false }
        defer { close(held) }
        return sg_chmod_held(held, 0o700) == 0
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
        var remover = Remover(top: fd, shown: path)
        remover.emptyTop()
        close(fd)
        if rmdir(path) != 0 && errno != ENOENT { remover.left.append(path) }
        return remover.left
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
        let shown = root + "/" + relativePath
        guard info.st_mode & S_IFMT == S_IFDIR else {
            return unlinkat(fd, last, 0) != 0 && errno != ENOENT ? [shown] : []
        }
        let sub = openat(fd, last, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        var left: [String] = []
        if sub >= 0 {
            var remover = Remover(top: sub, shown: shown)
            remover.emptyTop()
            left = remover.left
            close(sub)
        }
        if unlinkat(fd, last, AT_REMOVEDIR) != 0 && errno != ENOENT { left.append(shown) }
        return left
    }

    /// Levels a walk goes down before it moves a directory up to the top of the tree: no walk
    /// holds more descriptors or stack frames than this, however deep an extension nested
    /// its directories (thousands of levels of one-letter names fit its quota).
    static let flattenDepth = 64

    /// The removal of what one directory holds, by descriptor.
    private struct Remover {
        /// The directory being emptied (the tree's top), open.
        let top: Int32
        let shown: String
        var left: [String] = []
        private var moved = 0

        init(top: Int32, shown: String) {
            self.top = top
            self.shown = shown
        }

        /// Empties the top, pass after pass while directories were moved up to it.
        mutating func emptyTop() {
            while true {
                let before = moved
                _ = fchmod(top, 0o700)
                guard let names = DirectoryTree.names(of: top) else { return left.append(shown) }
                for name in names { remove(name, in: top, shown: shown + "/" + name, depth: 1) }
                if moved == before { return }
            }
        }

        /// Removes entry `name` of the directory open as `fd`.
        private mutating func remove(_ name: String, in fd: Int32, shown: String, depth: Int) {
            var info = stat()
            guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                if unlinkat(fd, name, 0) != 0 && errno != ENOENT { left.append(shown) }
                return
            }
            if depth >= DirectoryTree.flattenDepth {
                // Deep enough: moved up to the top, and removed from there in the next pass.
                if renameat(fd, name, top, ".sandglass-removing-\(moved + 1)") == 0 {
                    moved += 1
                    return
                }
            }
            // A directory closed to its owner (mode 0, or 0500) is opened again for removal: the
            // host's own user owns it when extensions run as that user.
            var sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if sub < 0 && errno == EACCES && DirectoryTree.openToOwner(fd, name) {
                sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            if sub >= 0 {
                _ = fchmod(sub, 0o700)
                if let names = DirectoryTree.names(of: sub) {
                    for child in names { remove(child, in: sub, shown: shown + "/" + child, depth: depth + 1) }
                } else {
                    left.append(shown)
                }
                close(sub)
            }
            if unlinkat(fd, name, AT_REMOVEDIR) != 0 && errno != ENOENT { left.append(shown) }
        }
    }
}

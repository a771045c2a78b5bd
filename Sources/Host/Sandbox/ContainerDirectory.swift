import Glibc

/// A container that could not be made ready.
public struct ContainerError: Error, Sendable, CustomStringConvertible {
    public let identifier: String
    public let reason: String

    init(_ identifier: String, _ reason: String) {
        self.identifier = identifier
        self.reason = reason
    }

    public var description: String { "the container of \(identifier) could not be prepared: \(reason)" }
}

/// Creates an extension's container without ever following a path an extension could have
/// changed: every step is relative to a directory descriptor opened with `O_NOFOLLOW`, new
/// directories are made with `mkdirat` and given to the extension's user with `fchown` on the
/// descriptor of the directory just made. Nothing existing inside a container is chowned.
///
/// The containers root belongs to the host (mode 0711: traversable, not listable); each
/// container is mode 0700, owned by its extension's uid.
enum ContainerDirectory {
    /// The directories an extension finds in its container (`HOME`, `TMPDIR`, Foundation's user directories).
    static let standardSubdirectories = ["tmp", "Library", "Library/Caches", "Documents"]

    /// What ``prepare(root:identifier:owner:)`` did about an existing entry that could not be the container.
    enum Repair: Equatable {
        case none
        /// A symlink or another non-directory was removed.
        case removed(String)
        /// A directory owned by another user was moved aside under this name (in the root).
        case movedAside(String, owner: UInt32)
    }

    /// Makes `root/identifier` a real directory of mode 0700 owned by `owner` (nil: the host's
    /// user), with the standard subdirectories. Returns its path and what was repaired.
    static func prepare(
        root: String, identifier: String, owner: ExtensionIdentity?
    ) throws(ContainerError) -> (path: String, repair: Repair) {
        guard !identifier.isEmpty, !identifier.contains("/"), identifier != ".", identifier != ".." else {
            throw ContainerError(identifier, "the bundle identifier is not a valid directory name")
        }
        let rootFD = try openRoot(root, for: identifier)
        defer { close(rootFD) }
        let uid = owner?.uid ?? geteuid()
        let gid = owner?.gid ?? getegid()
        var repair = Repair.none
        var st = stat()
        if fstatat(rootFD, identifier, &st, AT_SYMLINK_NOFOLLOW) == 0 {
            if st.st_mode & S_IFMT != S_IFDIR {
                guard unlinkat(rootFD, identifier, 0) == 0 else {
                    throw failure(identifier, "removing the non-directory at \(root)/\(identifier)")
                }
                repair = .removed("a \(st.st_mode & S_IFMT == S_IFLNK ? "symbolic link" : "file") stood where the container belongs")
            } else if st.st_uid != uid {
                let aside = ".\(identifier).owner-\(st.st_uid).\(UInt64(time(nil)))"
                guard renameat(rootFD, identifier, rootFD, aside) == 0 else {
                    throw failure(identifier, "moving aside \(root)/\(identifier)")
                }
                repair = .movedAside(aside, owner: st.st_uid)
            }
        } else if errno != ENOENT {
            throw failure(identifier, "examining \(root)/\(identifier)")
        }
        let created = mkdirat(rootFD, identifier, 0o700) == 0
        if !created && errno != EEXIST { throw failure(identifier, "creating \(root)/\(identifier)") }
        let containerFD = openat(rootFD, identifier, O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard containerFD >= 0 else { throw failure(identifier, "opening \(root)/\(identifier)") }
        defer { close(containerFD) }
        guard fstat(containerFD, &st) == 0, created || st.st_uid == uid else {
            throw ContainerError(identifier, "\(root)/\(identifier) changed owner while it was being prepared")
        }
        for subdirectory in standardSubdirectories {
            try makeSubdirectory(subdirectory, in: containerFD, uid: uid, gid: gid, identifier: identifier)
        }
        // Last: until now only the host could write in a new container.
        guard fchmod(containerFD, 0o700) == 0, fchown(containerFD, uid, gid) == 0 else {
            throw failure(identifier, "giving \(root)/\(identifier) to uid \(uid)")
        }
        return (root + "/" + identifier, repair)
    }

    /// Creates the containers root when missing (mode 0711); it must be a real directory.
    private static func openRoot(_ root: String, for identifier: String) throws(ContainerError) -> Int32 {
        if mkdir(root, 0o711) == 0 { _ = chmod(root, 0o711) }
        let fd = open(root, O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw failure(identifier, "opening the containers root \(root) (it must be a real directory)") }
        _ = fchmod(fd, 0o711)
        return fd
    }

    /// `relative` (components separated by `/`) below `containerFD`, each component made if
    /// missing and never followed when it is a symbolic link (then it is left alone: the
    /// extension made it, the SDK copes).
    private static func makeSubdirectory(
        _ relative: String, in containerFD: Int32, uid: UInt32, gid: UInt32,
        identifier: String
    ) throws(ContainerError) {
        var parent = fcntl(containerFD, F_DUPFD_CLOEXEC, 0)
        guard parent >= 0 else { throw failure(identifier, "dup") }
        defer { close(parent) }
        for component in relative.split(separator: "/").map(String.init) {
            let made = mkdirat(parent, component, 0o700) == 0
            let fd = openat(parent, component, O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { return }
            if made { _ = fchown(fd, uid, gid) }
            close(parent)
            parent = fd
        }
    }

    private static func failure(_ identifier: String, _ what: String) -> ContainerError {
        ContainerError(identifier, "\(what): \(String(cString: strerror(errno))) (errno \(errno))")
    }
}

import Glibc

/// The modes of the host's data directory and its parts. Extensions may traverse the data
/// directory and the containers root to reach their own container, and the bundle store and
/// runtime directory to reach their executable and the clock shim, and the app groups' root to
/// reach the groups they declare, but list none of them; the
/// journal and transfers are the host's alone.
enum DataDirectory {
    /// Traversable, not listable (mode 0711).
    static let traversable: mode_t = 0o711
    /// The host's alone (mode 0700).
    static let hostOnly: mode_t = 0o700

    /// The subdirectories and their modes.
    static let layout: [(name: String, mode: mode_t)] = [
        ("Containers", traversable), ("Bundles", traversable), ("Runtime", traversable), ("Transfers", hostOnly),
        ("AppGroups", traversable)
    ]

    /// Creates what is missing and sets the modes of `path` (when it is the host's) and its
    /// subdirectories.
    static func prepare(_ path: String) throws(HostSetupError) {
        var st = stat()
        guard stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else {
            throw HostSetupError(description: "the data directory \(path) is not a directory")
        }
        if st.st_uid == geteuid() { _ = chmod(path, traversable) }
        for (name, mode) in layout {
            let sub = path + "/" + name
            if mkdir(sub, mode) != 0 && errno != EEXIST {
                throw HostSetupError(
                    description: "could not create \(sub): \(String(cString: strerror(errno))); is the data directory writable?")
            }
            // A symbolic link here would have come from someone with the host's rights; refuse it.
            guard lstat(sub, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else {
                throw HostSetupError(description: "\(sub) is not a directory (a symbolic link?); remove it and start again")
            }
            _ = chmod(sub, mode)
        }
    }
}

import Foundation
import Glibc

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
    ///
    /// The bundle is its author's, and may hold anything: it is walked by descriptor, never
    /// through a link swapped in meanwhile, and holds only directories, regular files and
    /// links (a FIFO, socket or device is refused, naming it). What is copied is created by
    /// the host and given its mode by descriptor, without setuid, setgid or sticky bits: a
    /// root host makes no setuid copy of an author's executable.
    static func place(_ app: String, identifier: String, in store: String) throws -> String {
        let fm = FileManager.default
        let source = URL(fileURLWithPath: app).standardizedFileURL.resolvingSymlinksInPath()
        let slot = URL(fileURLWithPath: store).appendingPathComponent(identifier)
        let destination = slot.appendingPathComponent(source.lastPathComponent)
        try checkLinks(in: source)
        if fm.fileExists(atPath: slot.path) { try fm.removeItem(at: slot) }
        try fm.createDirectory(at: destination, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let shown = source.lastPathComponent
        let from = try directory(open(source.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), shown)
        defer { close(from) }
        let to = try directory(open(destination.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), destination.path)
        defer { close(to) }
        try copyEntries(of: from, to: to, shown: shown, depth: 0)
        return destination.path
    }

    /// Whether a link's `target`, in a directory `depth` levels below the bundle's root, stays
    /// within the bundle, read as written: relative, never climbing above the root.
    static func staysInside(_ target: String, depth: Int) -> Bool {
        guard !target.hasPrefix("/") else { return false }
        var level = depth
        for part in target.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": level -= 1
            default: level += 1
            }
            if level < 0 { return false }
        }
        return true
    }

    /// Directories of a bundle, nested, at most.
    static let maximumDepth = 64

    /// Copies the entries of directory `from` into directory `to` (named `shown` in errors).
    private static func copyEntries(of from: Int32, to: Int32, shown: String, depth: Int) throws {
        guard depth < maximumDepth else {
            throw BundleError(file: shown, message: "is nested more than \(maximumDepth) directories deep in the bundle; flatten it")
        }
        guard let names = DirectoryTree.names(of: from) else { throw failure("cannot be listed", shown) }
        for name in names {
            let path = shown + "/" + name
            var info = stat()
            guard fstatat(from, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { throw failure("cannot be read", path) }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                guard mkdirat(to, name, 0o755) == 0 else { throw failure("cannot be copied", path) }
                let sub = try directory(openat(from, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), path)
                defer { close(sub) }
                let subCopy = try directory(openat(to, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), path)
                defer { close(subCopy) }
                try copyEntries(of: sub, to: subCopy, shown: path, depth: depth + 1)
            case S_IFLNK:
                var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                let length = readlinkat(from, name, &target, target.count - 1)
                guard length >= 0 else { throw failure("cannot be copied", path) }
                // The target read here, not the one checked by path before: a link swapped in
                // meanwhile is held to the same rule, and an absolute one would lead back into
                // the author's tree, which the author may change after the install.
                let text = String(decoding: target.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                guard Self.staysInside(text, depth: depth) else {
                    throw BundleError(
                        file: path,
                        message:
                            "is a symbolic link to \(text.debugDescription), outside the bundle as it is stored; make it relative, within the bundle"
                    )
                }
                guard symlinkat(target, to, name) == 0 else { throw failure("cannot be copied", path) }
            case S_IFREG:
                try copyFile(name, of: from, to: to, shown: path)
            default:
                throw BundleError(
                    file: path,
                    message: "is \(RegularFile.kind(of: info.st_mode)); a bundle holds only directories, regular files and symbolic links")
            }
        }
    }

    /// Places regular file `name` of `from` in `to`: a hard link where it can be, else a copy.
    private static func copyFile(_ name: String, of from: Int32, to: Int32, shown: String) throws {
        let source = openat(from, name, RegularFile.openFlags)
        guard source >= 0 else { throw failure("cannot be read", shown) }
        defer { close(source) }
        var info = stat()
        guard fstat(source, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw BundleError(file: shown, message: "changed while it was installed; install the bundle again")
        }
        let mode = info.st_mode & 0o777
        let special = info.st_mode & (S_ISUID | S_ISGID | S_ISVTX) != 0
        // A link shares the original's inode and mode: fine for a file others may read and run,
        // or one that is not executable; not for one with setuid or setgid bits. An executable
        // closed to others (mode 0700) is copied instead and opened, so the extension's user
        // can run it.
        let executableClosed = mode & 0o111 != 0 && mode & 0o005 != 0o005
        if !special && !executableClosed, linkat(AT_FDCWD, "/proc/self/fd/\(source)", to, name, AT_SYMLINK_FOLLOW) == 0 { return }
        let copy = openat(to, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard copy >= 0 else { throw failure("cannot be copied", shown) }
        defer { close(copy) }
        var buffer = [UInt8](repeating: 0, count: 256 << 10)
        while true {
            let n = read(source, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw failure("cannot be read", shown) }
            if n == 0 { break }
            var written = 0
            while written < n {
                let w = buffer.withUnsafeBytes { write(copy, $0.baseAddress! + written, n - written) }
                if w < 0 && errno == EINTR { continue }
                guard w > 0 else { throw failure("cannot be copied", shown) }
                written += w
            }
        }
        guard fchmod(copy, executableClosed ? mode | 0o055 : mode) == 0 else { throw failure("cannot be copied", shown) }
    }

    /// `fd`, a directory just opened, or the error naming `shown`.
    private static func directory(_ fd: Int32, _ shown: String) throws -> Int32 {
        guard fd >= 0 else {
            throw errno == ELOOP || errno == ENOTDIR
                ? BundleError(file: shown, message: "changed while it was installed; install the bundle again")
                : failure("cannot be opened", shown)
        }
        return fd
    }

    /// An error naming `shown` and what `errno` says.
    private static func failure(_ what: String, _ shown: String) -> BundleError {
        BundleError(
            file: shown, message: "\(what) (\(String(cString: strerror(errno)))); check its permissions and the data directory's disk")
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

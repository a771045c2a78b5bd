import Foundation
import Glibc
import Synchronization

/// Keeps `UserDefaults(suiteName: "group.…")` of each declared app group in step with the
/// group's container, where the app (the host) and the group's other extensions read and write
/// the suite: `Library/Preferences/<group>.plist`.
///
/// Foundation on Linux keeps a suite in `$XDG_CONFIG_HOME/<suite>.plist` (the host points it at
/// the container's `Library/Preferences`), writes it in place and makes it mode 0600 — a file
/// shared by extensions of different uids would not stay readable to them. So the suite's file
/// stays the extension's own, and the SDK synchronises it with the group's at each activation's
/// start and end: the extension's changes since the last synchronisation (key by key) are
/// merged into the group's file under a lock the host takes too, then the group's file is
/// brought in and `UserDefaults` reloads it. A provider reads what the app wrote before the
/// activation began; what it writes reaches the app when its completion is called.
final class GroupDefaultsSync: Sendable {
    static let shared = GroupDefaultsSync(
        groups: AppGroupContainers.declared,
        preferences: getenv("XDG_CONFIG_HOME").map { String(cString: $0) })

    private let groups: [String: String]
    private let preferences: String?
    /// The suite's contents at the last synchronisation, by group (what the extension's changes
    /// are measured from); a group not yet synchronised is absent, one without a file `nil`.
    private let synchronised = Mutex<[String: Data?]>([:])
    private let serial = Mutex(())

    init(groups: [String: String], preferences: String?) {
        self.groups = groups
        self.preferences = preferences
    }

    /// Merges the extension's changes into each group's suite and brings the group's suite in.
    /// Returns what went wrong, as sentences for the log (empty: nothing).
    @discardableResult
    func synchronise() -> [String] {
        guard let preferences, !groups.isEmpty else { return [] }
        return serial.withLock { _ in
            groups.keys.sorted().compactMap { group in
                do {
                    try synchronise(group, shared: groups[group]! + "/Library/Preferences", own: preferences)
                    return nil
                } catch {
                    return "the defaults of app group \(group) could not be synchronised: \(error)"
                }
            }
        }
    }

    private func synchronise(_ group: String, shared: String, own: String) throws {
        let file = group + ".plist"
        let defaults = UserDefaults(suiteName: group)
        // The first time, the file this extension kept from an earlier process is the base:
        // only what it changed since counts as its changes.
        let recorded: Data?? = synchronised.withLock { $0[group] }
        let base = recorded ?? Self.contents(own + "/" + file)
        _ = defaults?.synchronize() // the extension's pending writes, into its own file
        let mine = Self.contents(own + "/" + file)
        var latest: Data?
        if mine != base {
            latest = try Self.withLock(on: shared) {
                let merged = Self.merge(
                    base: Self.dictionary(base), mine: Self.dictionary(mine),
                    into: Self.dictionary(Self.contents(shared + "/" + file)))
                let data = try PropertyListSerialization.data(fromPropertyList: merged, format: .binary, options: 0)
                try Self.replace(shared + "/" + file, with: data, mode: 0o660)
                return data
            }
        } else {
            latest = Self.contents(shared + "/" + file)
        }
        guard latest != mine else {
            synchronised.withLock { $0[group] = .some(latest) }
            return
        }
        if let latest {
            try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: true)
            try Self.replace(own + "/" + file, with: latest, mode: 0o600)
        } else {
            _ = unlink(own + "/" + file)
        }
        synchronised.withLock { $0[group] = .some(latest) }
        _ = defaults?.synchronize() // nothing pending: drops the cache, the next read is the file's
    }

    /// `into` with every key whose value differs between `base` and `mine` set as in `mine`
    /// (removed when `mine` has none).
    static func merge(base: [String: Any], mine: [String: Any], into latest: [String: Any]) -> [String: Any] {
        var result = latest
        for key in Set(base.keys).union(mine.keys) where encoded(base[key]) != encoded(mine[key]) {
            result[key] = mine[key]
        }
        return result
    }

    private static func encoded(_ value: Any?) -> Data? {
        guard let value else { return nil }
        return try? PropertyListSerialization.data(fromPropertyList: ["v": value], format: .binary, options: 0)
    }

    static func dictionary(_ data: Data?) -> [String: Any] {
        guard let data, !data.isEmpty else { return [:] }
        return (try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)) as? [String: Any] ?? [:]
    }

    /// The bytes of the regular file at `path`, nil when there is none.
    static func contents(_ path: String) -> Data? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileHandle(fileDescriptor: fd, closeOnDealloc: false).readDataToEndOfFile()
    }

    /// Writes `data` under a new name beside `path` and renames it over `path`.
    static func replace(_ path: String, with data: Data, mode: mode_t) throws {
        let temporary = path + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        _ = fchmod(fd, mode)
        close(fd)
        guard written == data.count, rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }

    /// Runs `body` holding `flock` on the directory `path` (the host takes it too), waiting at
    /// most 2 s for it; past that, without it.
    static func withLock<T>(on path: String, _ body: () throws -> T) throws -> T {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return try body() }
        defer { close(fd) }
        let deadline = Date().addingTimeInterval(2)
        var locked = false
        while !locked && Date() < deadline {
            locked = flock(fd, LOCK_EX | LOCK_NB) == 0
            if !locked { usleep(1000) }
        }
        defer { if locked { flock(fd, LOCK_UN) } }
        return try body()
    }
}

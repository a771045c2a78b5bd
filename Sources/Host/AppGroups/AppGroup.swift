import Foundation
import Glibc

/// An app group's shared container, as the containing app sees it: the host API reads and
/// writes its files and its defaults as the app would, then asks `WidgetCenter` for a reload
/// as apps do.
///
/// ```swift
/// let group = try host.appGroup("group.com.example.relay")
/// group.defaults["relayData"] = "3 runners, next leg 14:05"
/// try group.write(Data(json.utf8), to: "Library/Caches/relay.json")
/// await host.reloadTimelines(ofKind: "RelayStatus")
/// ```
///
/// Every operation walks the container by descriptor and never follows a link an extension
/// planted there; files are written under a new name and renamed into place.
public final class AppGroup: Sendable {
    /// The group identifier (`group.…`).
    public let identifier: String
    /// The containing app's bundle identifier.
    public let app: String
    /// The container's path (read it in tests; write through this API, which never follows links).
    public let path: String
    /// The group's `UserDefaults(suiteName:)` suite.
    public let defaults: AppGroupDefaults
    let ownership: GroupOwnership

    /// The most bytes the host reads from one file of the group.
    public static let readLimit = 64 << 20

    init(identifier: String, app: String, path: String, ownership: GroupOwnership) {
        self.identifier = identifier
        self.app = app
        self.path = path
        self.ownership = ownership
        defaults = AppGroupDefaults(group: identifier, path: path, ownership: ownership)
    }

    /// Writes `data` to `relativePath` in the container (its directories made as needed).
    public func write(_ data: Data, to relativePath: String) throws {
        try GroupFiles.write(data, to: relativePath, root: path, ownership: ownership, group: identifier)
    }

    /// The contents of the file at `relativePath`; nil when there is none. A link, a directory
    /// or a special file there is refused.
    public func read(_ relativePath: String) throws -> Data? {
        try GroupFiles.read(relativePath, root: path, limit: Self.readLimit, group: identifier)
    }

    /// Removes the file (or empty directory) at `relativePath`.
    public func removeItem(_ relativePath: String) throws {
        try GroupFiles.remove(relativePath, root: path, group: identifier)
    }

    /// The names in the directory at `relativePath` (`""`: the container's top), sorted.
    public func contentsOfDirectory(_ relativePath: String = "") throws -> [String] {
        try GroupFiles.list(relativePath, root: path, group: identifier)
    }

    /// Copies the files of `directory` into the container (`sandglass run --app-group
    /// group.x=DIR`): directories are made, files replaced; a symbolic link or a special file
    /// in `directory` is refused, naming it.
    public func seed(from directory: String) throws {
        try AppGroupSeed.copy(directory, into: self)
    }
}

/// An app group's `UserDefaults(suiteName:)` suite as the containing app sees it: the property
/// list `Library/Preferences/<group>.plist` of the group's container, which the extensions'
/// SDK brings in before each activation and merges its own writes into after it.
///
/// Values are property-list values: `String`, numbers, `Bool`, `Date`, `Data`, and arrays and
/// dictionaries of them. The subscript's setter cannot throw: a failure is written to standard
/// error and kept in ``lastError``; use ``set(_:forKey:)`` to handle it.
public final class AppGroupDefaults: @unchecked Sendable {
    let group: String
    let path: String
    let ownership: GroupOwnership
    private let lock = NSLock()
    private var failure: (any Error)?

    init(group: String, path: String, ownership: GroupOwnership) {
        self.group = group
        self.path = path
        self.ownership = ownership
    }

    /// The suite's file, relative to the container.
    var relativePath: String { "Library/Preferences/\(group).plist" }

    /// The most bytes of the suite's file the host reads: 4 MiB. A suite holds settings, not
    /// files (Apple's tvOS warns at 512 KB of defaults and ends the app at 1 MB); what is
    /// larger belongs in the container's files, read up to ``AppGroup/readLimit``.
    public static let readLimit = 4 << 20

    /// The value of `key`, nil when absent (or unreadable: see ``dictionaryRepresentation()``).
    public subscript(key: String) -> Any? {
        get { (try? dictionaryRepresentation())?[key] }
        set {
            do {
                try set(newValue, forKey: key)
            } catch {
                lock.withLock { failure = error }
                FileHandle.standardError.write(Data("sandglass: AppGroupDefaults[\(key.debugDescription)] = …: \(error)\n".utf8))
            }
        }
    }

    /// The last failure of the subscript's setter.
    public var lastError: (any Error)? { lock.withLock { failure } }

    /// Sets `key` to `value` (nil removes it), as `UserDefaults.set(_:forKey:)` in the app.
    public func set(_ value: Any?, forKey key: String) throws {
        try update { dictionary in dictionary[key] = value }
    }

    /// Sets several keys at once (one write).
    public func update(_ change: (inout [String: Any]) throws -> Void) throws {
        try lock.withLock {
            try withFileLock {
                // A link or a special file an extension put in the suite's place is replaced, unread;
                // a file that does not read (too large, not a property list, refused) is left as it
                // is, and the write fails saying why: its keys are never lost to one new key.
                var dictionary: [String: Any]
                do {
                    dictionary = try read()
                } catch let error as AppGroupError where error.isNotAFile {
                    dictionary = [:]
                }
                try change(&dictionary)
                let data: Data
                do {
                    data = try PropertyListSerialization.data(fromPropertyList: dictionary, format: .xml, options: 0)
                } catch {
                    throw AppGroupError(group, "the defaults hold a value that is not a property-list value: \(error)")
                }
                guard data.count <= Self.readLimit else {
                    throw AppGroupError(
                        group,
                        "the defaults would be \(data.count) bytes, over the \(Self.readLimit >> 20) MiB the host reads; nothing was written"
                    )
                }
                try GroupFiles.write(data, to: relativePath, root: path, ownership: ownership, group: group)
            }
        }
    }

    /// Every key and value of the suite.
    public func dictionaryRepresentation() throws -> [String: Any] {
        try lock.withLock { try read() }
    }

    public func string(forKey key: String) -> String? { self[key] as? String }
    public func integer(forKey key: String) -> Int { (self[key] as? NSNumber)?.intValue ?? 0 }
    public func double(forKey key: String) -> Double { (self[key] as? NSNumber)?.doubleValue ?? 0 }
    public func bool(forKey key: String) -> Bool { (self[key] as? NSNumber)?.boolValue ?? false }
    public func data(forKey key: String) -> Data? { self[key] as? Data }

    private func read() throws -> [String: Any] {
        guard let data = try GroupFiles.read(relativePath, root: path, limit: Self.readLimit, group: group), !data.isEmpty else {
            return [:]
        }
        do {
            try BinaryPropertyListCheck.check(data)
        } catch {
            throw AppGroupError(group, "\(relativePath) \(error)")
        }
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw AppGroupError(group, "\(relativePath) is not a property list: \(error)")
        }
        guard let dictionary = root as? [String: Any] else {
            throw AppGroupError(group, "\(relativePath) does not hold a dictionary")
        }
        return dictionary
    }

    /// Runs `body` holding the suite's lock (`flock` on `Library/Preferences`), which the
    /// extensions' SDK takes too while it merges its writes. An extension holding it for more
    /// than 2 s makes the host's write fail, saying so, rather than wait on it.
    private func withFileLock<T>(_ body: () throws -> T) throws -> T {
        let rootFD = try GroupFiles.openRoot(path, group: group)
        defer { close(rootFD) }
        let fd = try GroupFiles.directory(["Library", "Preferences"], in: rootFD, creating: ownership, group: group)
        defer { close(fd) }
        let deadline = Date().addingTimeInterval(2)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
                throw AppGroupError(group, "the defaults' lock (flock on Library/Preferences) is held by an extension for more than 2 s")
            }
            usleep(1000)
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}

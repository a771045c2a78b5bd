import Glibc

/// The uid and gid an extension's process runs as.
public struct ExtensionIdentity: Sendable, Hashable, CustomStringConvertible {
    public let uid: UInt32
    public let gid: UInt32

    public init(uid: UInt32, gid: UInt32) {
        self.uid = uid
        self.gid = gid
    }

    public var description: String { "uid \(uid), gid \(gid)" }
}

/// One identity per extension (Android's model): distinct uids make the kernel refuse one
/// extension's reads of another's container, signals, `prlimit`, `setpriority` and
/// `sched_setaffinity` across extensions, and connects to sockets inside another's container.
///
/// The record is the container itself: its directory's owner is the extension's uid, so the
/// identities survive a restart of the host on the same data directory with no file of their
/// own. A container keeps its uid when it is a real directory owned by a uid of the range that
/// no other container (first by name) claims; any other extension gets the lowest uid of the
/// range that no container owns and the user database does not know (gid = uid).
/// Confined to the host's loop thread.
final class ExtensionIdentities {
    let range: ClosedRange<UInt32>
    private var owners: [UInt32: String] = [:]
    private var assigned: [String: ExtensionIdentity] = [:]

    /// Reads the owners of the containers under `containersRoot`.
    init(range: ClosedRange<UInt32>, containersRoot: String) {
        self.range = range
        guard let dir = opendir(containersRoot) else { return }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        let rootFD = dirfd(dir)
        for name in names.sorted() {
            var st = stat()
            guard fstatat(rootFD, name, &st, AT_SYMLINK_NOFOLLOW) == 0, st.st_mode & S_IFMT == S_IFDIR,
                range.contains(st.st_uid), owners[st.st_uid] == nil
            else { continue }
            owners[st.st_uid] = name
        }
    }

    /// The identity of the extension whose container is named `identifier`.
    func identity(for identifier: String) throws(ContainerError) -> ExtensionIdentity {
        if let known = assigned[identifier] { return known }
        let uid: UInt32
        if let owned = owners.first(where: { $0.value == identifier })?.key {
            uid = owned
        } else {
            guard let free = range.first(where: { owners[$0] == nil && !Self.isKnown($0) }) else {
                throw ContainerError(
                    identifier,
                    "no free uid is left in the range \(range.lowerBound)-\(range.upperBound) (\(owners.count) taken by containers); widen SandboxPolicy.identityRange"
                )
            }
            uid = free
            owners[uid] = identifier
        }
        let identity = ExtensionIdentity(uid: uid, gid: uid)
        assigned[identifier] = identity
        return identity
    }

    /// Whether the user or group database names `id` (it belongs to someone else).
    private static func isKnown(_ id: UInt32) -> Bool {
        var user = passwd()
        var group = group()
        var found: UnsafeMutablePointer<passwd>?
        var foundGroup: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 4096)
        if getpwuid_r(id, &user, &buffer, buffer.count, &found) == 0, found != nil { return true }
        if getgrgid_r(id, &group, &buffer, buffer.count, &foundGroup) == 0, foundGroup != nil { return true }
        return false
    }
}

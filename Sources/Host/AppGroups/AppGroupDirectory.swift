import Foundation
import Glibc

/// Makes the container of an app group: `<data>/AppGroups/<app>/<group>`, one per app and
/// group identifier (Sandglass has no team: two apps naming the same group get a container
/// each). The two levels above belong to the host (0711: traversable, not listable); the
/// container is the host's, of the group's gid and setgid (02770) when extensions have uids of
/// their own, so that every extension that declares the group — and no other — reaches it and
/// what it makes there stays the group's. Made by descriptor, never following a link: a link
/// or a file standing where the container belongs is removed, a directory of another owner is
/// moved aside. Confined to the host's loop thread.
enum AppGroupDirectory {
    /// What ``prepare(root:app:group:ownership:)`` repaired.
    enum Repair: Equatable {
        case none
        case removed(String)
        case movedAside(String)
    }

    /// The directories the container holds from the start, as on Apple's platforms.
    static let standardSubdirectories = ["Library", "Library/Preferences", "Library/Caches"]

    static func prepare(
        root: String, app: String, group: String, ownership: GroupOwnership
    ) throws(AppGroupError) -> (path: String, repair: Repair) {
        for name in [app, group] where name.isEmpty || name.contains("/") || name == "." || name == ".." {
            throw AppGroupError(group, "\(name.debugDescription) is not a valid directory name")
        }
        if mkdir(root, 0o711) == 0 { _ = chmod(root, 0o711) }
        let rootFD = open(root, O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_RDONLY)
        guard rootFD >= 0 else { throw .errno(group, "opening \(root) (it must be a real directory)") }
        defer { close(rootFD) }
        _ = fchmod(rootFD, 0o711)
        // <root>/<app>: the host's, traversable.
        _ = mkdirat(rootFD, app, 0o711)
        let appFD = openat(rootFD, app, O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_RDONLY)
        guard appFD >= 0 else { throw .errno(group, "opening \(root)/\(app)") }
        defer { close(appFD) }
        var st = stat()
        guard fstat(appFD, &st) == 0, st.st_uid == geteuid() else {
            throw AppGroupError(group, "\(root)/\(app) is not the host's directory (owner uid \(st.st_uid)); remove it and start again")
        }
        _ = fchmod(appFD, 0o711)
        // <root>/<app>/<group>: the container.
        var repair = Repair.none
        if fstatat(appFD, group, &st, AT_SYMLINK_NOFOLLOW) == 0 {
            if st.st_mode & S_IFMT != S_IFDIR {
                guard unlinkat(appFD, group, 0) == 0 else { throw .errno(group, "removing the non-directory at \(root)/\(app)/\(group)") }
                repair = .removed(
                    "a \(st.st_mode & S_IFMT == S_IFLNK ? "symbolic link" : "file") stood where the group's container belongs")
            } else if st.st_uid != ownership.uid {
                let aside = ".\(group).owner-\(st.st_uid).\(UInt64(time(nil)))"
                guard renameat(appFD, group, appFD, aside) == 0 else { throw .errno(group, "moving aside \(root)/\(app)/\(group)") }
                repair = .movedAside(aside)
            }
        } else if errno != ENOENT {
            throw .errno(group, "examining \(root)/\(app)/\(group)")
        }
        _ = mkdirat(appFD, group, 0o700)
        let groupFD = openat(appFD, group, O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_RDONLY)
        guard groupFD >= 0 else { throw .errno(group, "opening \(root)/\(app)/\(group)") }
        defer { close(groupFD) }
        GroupFiles.adopt(groupFD, ownership, directory: true)
        for subdirectory in standardSubdirectories {
            let parts = subdirectory.split(separator: "/").map(String.init)
            let fd = try GroupFiles.directory(parts[...], in: groupFD, creating: ownership, group: group)
            close(fd)
        }
        return (root + "/" + app + "/" + group, repair)
    }
}

/// One gid per app group of an app, when extensions run with uids of their own: each extension
/// that declares the group gets it as a supplementary group. The record is the container: its
/// directory's gid, so the gids survive a restart of the host on the same data directory.
/// A gid the group database knows is never used. Confined to the host's loop thread.
final class AppGroupIdentities {
    let range: ClosedRange<UInt32>
    private var owners: [UInt32: String] = [:]

    /// Reads the gids of the containers under `root` (`<app>/<group>`).
    init(range: ClosedRange<UInt32>, root: String) {
        self.range = range
        let fm = FileManager.default
        for app in ((try? fm.contentsOfDirectory(atPath: root)) ?? []).sorted() where !app.hasPrefix(".") {
            for group in ((try? fm.contentsOfDirectory(atPath: root + "/" + app)) ?? []).sorted() where !group.hasPrefix(".") {
                var st = stat()
                guard lstat(root + "/" + app + "/" + group, &st) == 0, st.st_mode & S_IFMT == S_IFDIR,
                    range.contains(st.st_gid), owners[st.st_gid] == nil
                else { continue }
                owners[st.st_gid] = app + "/" + group
            }
        }
    }

    /// The gid of `group` of `app`.
    func gid(app: String, group: String) throws(AppGroupError) -> UInt32 {
        let key = app + "/" + group
        if let known = owners.first(where: { $0.value == key })?.key { return known }
        guard let free = range.first(where: { owners[$0] == nil && !Self.isKnown($0) }) else {
            throw AppGroupError(
                group, "no free gid is left in the range \(range.lowerBound)-\(range.upperBound); widen SandboxPolicy.appGroupRange")
        }
        owners[free] = key
        return free
    }

    private static func isKnown(_ gid: UInt32) -> Bool {
        var entry = group()
        var found: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 4096)
        return getgrgid_r(gid, &entry, &buffer, buffer.count, &found) == 0 && found != nil
    }
}

import Foundation
import Glibc

/// The owner, group and modes of what the host makes in an app group's directory: the
/// directory shared by gid (setgid, 02770) when extensions have uids of their own, or the one
/// user every extension runs as (0700).
struct GroupOwnership: Sendable, Hashable {
    let uid: UInt32
    let gid: UInt32
    let directoryMode: mode_t
    let fileMode: mode_t

    /// Shared by `gid` among extensions of different uids; the host's files are its own.
    static func shared(gid: UInt32) -> GroupOwnership {
        GroupOwnership(uid: geteuid(), gid: gid, directoryMode: 0o2770, fileMode: 0o660)
    }

    /// Every extension runs as `uid`:`gid` (the host's user, or one given).
    static func single(uid: UInt32, gid: UInt32) -> GroupOwnership {
        GroupOwnership(uid: uid, gid: gid, directoryMode: 0o700, fileMode: 0o600)
    }
}

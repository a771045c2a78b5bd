import Foundation
import Glibc

/// Reachability of the files an extension uses, for the user it runs as.
enum ExtensionFiles {
    /// `nil` when a process of `user` can reach (search) every directory up to and including
    /// `path`, else the first directory it cannot, with its mode.
    /// With an identity per extension, any uid of `range` stands for them all (none owns the path).
    static func unreachableAncestor(of path: String, for user: ExtensionUser, range: ClosedRange<UInt32>) -> String? {
        guard
            let (uid, gid) = user.isPerExtension
                ? (range.lowerBound, range.lowerBound)
                : user.sharedCredentials.map({ ($0.uid, $0.gid) })
        else { return nil }
        var url = URL(fileURLWithPath: path).standardizedFileURL
        var chain: [String] = []
        while true {
            chain.append(url.path)
            if url.path == "/" { break }
            url.deleteLastPathComponent()
        }
        for dir in chain.reversed() {
            var st = stat()
            guard stat(dir, &st) == 0 else { continue }
            let mode = st.st_mode
            let searchable =
                st.st_uid == uid
                ? mode & S_IXUSR != 0
                : st.st_gid == gid
                    ? mode & S_IXGRP != 0
                    : mode & S_IXOTH != 0
            if !searchable { return "\(dir) (mode \(String(mode & 0o777, radix: 8)), owner uid \(st.st_uid))" }
        }
        return nil
    }
}

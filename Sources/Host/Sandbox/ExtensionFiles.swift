import Foundation
import Glibc

/// Ownership and reachability of the files an extension uses, for the user it runs as.
enum ExtensionFiles {
    /// Makes `path` and everything below it belong to the extension's user (no-op when the
    /// extension runs as the host's user).
    static func handOver(_ path: String, to user: ExtensionUser) {
        guard let (uid, gid) = user.credentials else { return }
        _ = lchown(path, uid, gid)
        guard let walker = FileManager.default.enumerator(atPath: path) else { return }
        for case let relative as String in walker {
            _ = lchown(path + "/" + relative, uid, gid)
        }
    }

    /// `nil` when a process of `user` can reach (search) every directory up to and including
    /// `path`, else the first directory it cannot, with its mode.
    static func unreachableAncestor(of path: String, for user: ExtensionUser) -> String? {
        guard let (uid, gid) = user.credentials else { return nil }
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
            let searchable = st.st_uid == uid ? mode & S_IXUSR != 0
                : st.st_gid == gid ? mode & S_IXGRP != 0
                : mode & S_IXOTH != 0
            if !searchable { return "\(dir) (mode \(String(mode & 0o777, radix: 8)), owner uid \(st.st_uid))" }
        }
        return nil
    }
}

import Glibc
import Synchronization

/// What the host holds on its own disk for each extension's downloads — background bodies in
/// flight, finished ones waiting for their delivery, inline bodies being written — by file.
/// An extension holds no more there than its container may hold (``Budgets/containerBytes``):
/// on Apple's systems a background download lands in the app's own container, and the file
/// could not be kept in the container anyway. A write that would pass it is refused before it
/// is made, so no file and no total ever does. Used from the loop and from the attempts' tasks.
final class DownloadLedger: Sendable {
    /// One download's charge: the extension it is held for, and how much that may hold.
    struct Quota: Sendable {
        let ledger: DownloadLedger
        let bundle: String
        let bytes: Int64

        /// Charges `path` at `size` bytes, or returns why not (nothing is charged then).
        func admit(_ path: String, size: Int64) -> String? {
            ledger.admit(path, size: size, for: bundle, limit: bytes)
        }
    }

    private struct State {
        var files: [String: (bundle: String, bytes: Int64)] = [:]
        var held: [String: Int64] = [:]
    }

    private let state = Mutex(State())

    /// Records that `path` holds `size` bytes for `bundle`, unless `bundle` would then hold more
    /// than `limit` in all: then nothing changes, and the reason is returned.
    func admit(_ path: String, size: Int64, for bundle: String, limit: Int64) -> String? {
        state.withLock { state in
            let before = state.files[path]?.bytes ?? 0
            let others = (state.held[bundle] ?? 0) - before
            guard others + size <= limit else {
                if size > limit {
                    return "resource exceeds maximum size (\(size) bytes, over the \(limit) that \(bundle)'s container may hold)"
                }
                return
                    "resource exceeds maximum size (the host already holds \(others) bytes of other downloads for \(bundle); this one's \(size) would take it past the \(limit) its container may hold)"
            }
            state.files[path] = (bundle, size)
            state.held[bundle] = others + size
            return nil
        }
    }

    /// Removes the file at `path` (the host's own directory) and its charge.
    func removeFile(_ path: String) {
        unlink(path)
        removed(path)
    }

    /// The file at `path` is gone: its bytes are no longer held.
    func removed(_ path: String) {
        state.withLock { state in
            guard let file = state.files.removeValue(forKey: path) else { return }
            state.held[file.bundle, default: 0] -= file.bytes
            if state.held[file.bundle] == 0 { state.held.removeValue(forKey: file.bundle) }
        }
    }

    /// The file at `from` was renamed `to`.
    func moved(_ from: String, to: String) {
        state.withLock { state in
            guard let file = state.files.removeValue(forKey: from) else { return }
            if let replaced = state.files.updateValue(file, forKey: to) {
                state.held[replaced.bundle, default: 0] -= replaced.bytes
            }
        }
    }

    /// Bytes held for `bundle` now.
    func held(by bundle: String) -> Int64 {
        state.withLock { $0.held[bundle] ?? 0 }
    }
}

/// A download the ledger refused: it fails with `NSURLErrorDataLengthExceedsMaximum` (-1103),
/// not retried.
struct DownloadOverQuota: Error, CustomStringConvertible {
    let description: String
}

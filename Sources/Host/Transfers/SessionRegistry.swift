import SandglassIPC

/// Which process holds which background session now. One live session per identifier (per
/// containing app): a second process that claims it gets its session invalidated
/// (`NSURLErrorBackgroundSessionInUseByAnotherProcess`, -996). Confined to the loop thread.
final class SessionRegistry {
    struct Key: Hashable {
        let app: String
        let identifier: String
    }

    struct Holder {
        let bundle: String
        let pid: Int32
    }

    private(set) var holders: [Key: Holder] = [:]

    /// Records that `pid` of `bundle` attached the session; returns the holder it conflicts
    /// with, if another live process has it.
    func attach(_ key: Key, bundle: String, pid: Int32) -> Holder? {
        if let holder = holders[key], holder.pid != pid { return holder }
        holders[key] = Holder(bundle: bundle, pid: pid)
        return nil
    }

    /// Whether `pid` holds the session.
    func isHeld(_ key: Key, by pid: Int32) -> Bool {
        holders[key]?.pid == pid
    }

    func detach(_ key: Key, pid: Int32) {
        if holders[key]?.pid == pid { holders.removeValue(forKey: key) }
    }

    /// Forgets every session of a process that ended; returns their keys.
    @discardableResult
    func processEnded(_ pid: Int32) -> [Key] {
        let keys = holders.filter { $0.value.pid == pid }.map(\.key)
        for key in keys { holders.removeValue(forKey: key) }
        return keys
    }
}

import CSandbox
import Glibc
import NIOCore
import SandglassHost

/// Who connected to the control socket, and whether the daemon serves them. The socket's mode
/// (0600) keeps other users out; a daemon that does not run as root runs its extensions as its
/// own user, so the mode alone lets them in. The kernel's word on the peer (SO_PEERCRED, taken
/// at connect) settles it: the daemon serves root and its own user, never a process it spawned
/// — its extensions are its children, and cannot fork — and never a peer that is gone (an
/// extension that connected, wrote its request and died). With SO_PEERPIDFD (Linux 6.5) the
/// peer is held by a pidfd while it is looked at, so that its pid cannot name another process.
struct ControlPeer {
    /// The connecting process (its thread group) and its user, as the kernel recorded them.
    let pid: pid_t
    let uid: uid_t

    /// SO_PEERPIDFD (Linux 6.5), which Debian 12's headers do not name.
    static let peerPidfdOption: Int32 = 77

    /// `struct ucred` (SO_PEERCRED), which Swift's Glibc does not import.
    struct Credentials {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
    }

    /// Why the peer on `channel` is not served, or nil when it is.
    static func refusal(of channel: any Channel) async -> (peer: ControlPeer?, reason: String)? {
        guard let provider = channel as? any SocketOptionProvider else { return (nil, "the daemon cannot tell who connected") }
        let credentials: Credentials
        do {
            credentials = try await provider.unsafeGetSocketOption(
                level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED)
            ).get()
        } catch {
            return (nil, "the daemon cannot tell who connected (SO_PEERCRED: \(error))")
        }
        let pidfd: Int32? = try? await provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(peerPidfdOption)
        ).get()
        defer { if let pidfd, pidfd >= 0 { close(pidfd) } }
        let peer = ControlPeer(pid: credentials.pid, uid: credentials.uid)
        return peer.refusal(pidfd: pidfd.flatMap { $0 >= 0 ? $0 : nil }).map { (peer, $0) }
    }

    /// Why this peer is not served, or nil; `pidfd` (when the kernel gave one) holds it.
    func refusal(pidfd: Int32?) -> String? {
        guard uid == 0 || uid == geteuid() else { return "uid \(uid) is neither root nor the daemon's user (\(geteuid()))" }
        guard pid > 0, let parent = Self.parent(of: pid), Self.isAlive(pid, pidfd: pidfd) else {
            return "the process that connected (pid \(pid)) is gone"
        }
        if parent == getpid() { return "the process that connected (pid \(pid)) is one of this daemon's extensions" }
        return nil
    }

    /// The parent pid of `pid`, from /proc, or nil when it is gone.
    static func parent(of pid: pid_t) -> pid_t? {
        guard let fields = ProcStat.fields(of: pid), fields.count > 1 else { return nil }
        return pid_t(fields[1])
    }

    /// Whether `pid` still runs: through its pidfd when there is one (then the /proc read
    /// before it was of this very process), else by pid. A process the daemon may not signal
    /// (root's, to a daemon that is not root) runs too.
    static func isAlive(_ pid: pid_t, pidfd: Int32?) -> Bool {
        if let pidfd {
            let rc = sg_pidfd_send_signal(pidfd, 0)
            return rc == 0 || rc == -EPERM
        }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}

import CSandbox
import Glibc

/// The default seccomp policy as BPF, compiled once per host process with libseccomp and
/// handed to every child, which only installs it (research/sandbox-anchors.md §4a: compiling in
/// the child costs +240 µs per spawn and is not fork-safe).
struct SeccompProgram: Sendable {
    /// The `struct sock_filter` array.
    let bytes: [UInt8]
    /// Denials come to the host as seccomp user notifications (recorded as `sandbox.denied`);
    /// false on kernels without them, where denials are a plain errno.
    let usesNotifications: Bool

    /// The default policy (see seccomp_filter.c), compiled on first use: with sealed
    /// non-executable memfds, for extensions whose memory a cgroup counts.
    static let shared: Result<SeccompProgram, SandboxError> = compile(memfds: true, deniesPathMetadata: false)
    /// The default policy without any memfd, for extensions whose memory only the resident-memory
    /// watchdog measures: a memfd's pages written and not mapped are resident nowhere it looks.
    static let withoutMemfds: Result<SeccompProgram, SandboxError> = compile(memfds: false, deniesPathMetadata: false)
    /// ``shared`` and ``withoutMemfds`` for extensions that share a uid: no change of a file's
    /// mode, owner, times or extended attributes by path, which the kernel would allow on every
    /// file of that uid (another extension's, the user's) and no Landlock right covers.
    static let sharedUser: Result<SeccompProgram, SandboxError> = compile(memfds: true, deniesPathMetadata: true)
    static let sharedUserWithoutMemfds: Result<SeccompProgram, SandboxError> = compile(memfds: false, deniesPathMetadata: true)

    /// The program for a sandbox: memfds where a memory cgroup counts them, path metadata
    /// calls where each extension has a uid of its own.
    static func program(memfds: Bool, ownUser: Bool) -> Result<SeccompProgram, SandboxError> {
        switch (memfds, ownUser) {
        case (true, true): shared
        case (false, true): withoutMemfds
        case (true, false): sharedUser
        case (false, false): sharedUserWithoutMemfds
        }
    }

    private static func compile(memfds: Bool, deniesPathMetadata: Bool) -> Result<SeccompProgram, SandboxError> {
        let notify = sg_seccomp_notify_available() == 1
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let size = buffer.withUnsafeMutableBytes {
            sg_seccomp_build_default(notify ? 1 : 0, memfds ? 1 : 0, deniesPathMetadata ? 1 : 0, $0.baseAddress, $0.count)
        }
        guard size > 0 else { return .failure(SandboxError(.seccompCompile, errno: Int32(-size), "default policy")) }
        return .success(SeccompProgram(bytes: Array(buffer.prefix(Int(size))), usesNotifications: notify))
    }

    /// The calls denied as sockets are, with EACCES: creating, naming, connecting and serving one.
    static let socketCalls: Set<String> = ["socket", "socketpair", "bind", "connect", "listen", "accept", "accept4"]

    /// The errno a denied call gets, by syscall name (the same as the errno-only filter gives).
    static func errno(forDenied syscall: String) -> Int32 {
        socketCalls.contains(syscall) ? EACCES : EPERM
    }
}

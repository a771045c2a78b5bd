import Glibc

/// A failure of the sandbox machinery: what was being done, and the errno.
public struct SandboxError: Error, Sendable, CustomStringConvertible {
    /// What failed.
    public enum Code: Sendable, Hashable {
        /// Setting up the host's event loop.
        case loopSetup
        /// Compiling the seccomp filter with libseccomp.
        case seccompCompile
        /// Creating the Landlock ruleset.
        case landlock
        /// Creating or configuring a cgroup.
        case cgroup
        /// Creating the IPC socketpair or log pipe.
        case channel
        /// The child's setup between clone and execve; `step` names the call.
        case spawn(step: String)
    }

    public let code: Code
    /// The errno of the failing call, 0 when none.
    public let errno: Int32
    /// The object of the failure: a path, a syscall.
    public let detail: String

    public init(_ code: Code, errno: Int32, _ detail: String) {
        self.code = code
        self.errno = errno
        self.detail = detail
    }

    public var description: String {
        let reason = errno == 0 ? "" : ": \(String(cString: strerror(errno))) (errno \(errno))"
        switch code {
        case .loopSetup: return "could not set up the host's event loop (\(detail))\(reason)"
        case .seccompCompile:
            return "could not compile the seccomp filter (\(detail))\(reason); is libseccomp installed (apt-get install libseccomp-dev)?"
        case .landlock: return "could not build the Landlock ruleset for \(detail)\(reason)"
        case .cgroup: return "cgroup \(detail)\(reason)"
        case .channel: return "could not create the extension's \(detail)\(reason)"
        case .spawn(let step): return "spawning \(detail) failed at \(step)\(reason)"
        }
    }
}

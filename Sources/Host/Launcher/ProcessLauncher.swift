import Glibc

/// Where the supervisor's extension processes come from: the port behind which the sandbox's
/// real children (``Sandbox``, the Linux backend) and stand-ins (the in-process runtime of the
/// `SandglassEmbedded` test target) both sit. Called on the host's loop thread only.
///
/// A launched process speaks the IPC protocol on its channel, writes its output to a pipe, and
/// makes its exit descriptor readable once it ended; its ``ProcessControl`` kills, signals and
/// reaps it. Everything else (budgets, lifecycle, reaping's records) is the supervisor's.
package protocol ProcessLauncher: AnyObject {
    /// Starts the extension `request` describes. Throws an error naming what failed (the
    /// sandbox's ``SandboxError``), recorded as `spawn.failed`.
    func launch(_ request: LaunchRequest) throws -> LaunchedProcess

    /// `cgroup` or `watchdog`: what enforces the memory budget of what it launches.
    var memoryEnforcement: String { get }
}

/// What to launch: an extension's executable, its environment and container, and the sandbox's
/// limits for it.
package struct LaunchRequest {
    /// The extension's `CFBundleIdentifier`.
    package let bundleIdentifier: String
    package let executable: String
    package let environment: [String: String]
    /// Its container: the working directory and `HOME`.
    package let container: String
    package let memoryBytes: Int
    /// The directory its executable may be read and run from (the bundle).
    let executableRoot: String
    /// The uid and gid to run as; nil: the host's.
    let user: ExtensionIdentity?
    /// No file it writes grows past this (its container quota).
    let containerBytes: Int?
    /// Its cgroup's name (one per extension).
    let group: String
    /// Its app groups' containers, writable too, and the gids that open them to `user`.
    let sharedDirectories: [String]
    let supplementaryGroups: [UInt32]
}

/// A process launched: its pid, the host's ends of its channel and output, the descriptor that
/// becomes readable when it ends, and how to kill and reap it.
package struct LaunchedProcess {
    package let pid: pid_t
    /// Readable once the process ended (its pidfd on Linux).
    package let exitFD: Int32
    /// The host's end of its IPC socket.
    package let channelFD: Int32
    /// The read end of its stdout/stderr pipe.
    package let outputFD: Int32
    package let control: any ProcessControl
    /// A pidfd the deadline thread may signal at a budget's end; nil: none (the loop's timers kill).
    var pidfd: Int32?
    /// The seccomp notification listener, when the filter reports denials.
    var listenerFD: Int32?
    /// Its cgroup, when one enforces its memory budget.
    var cgroup: ExtensionCgroup?
    /// In the child: joining the cgroups, and every step from clone to execve (nanoseconds).
    var cgroupJoinNanoseconds: UInt64 = 0
    var setupNanoseconds: UInt64 = 0

    package init(pid: pid_t, exitFD: Int32, channelFD: Int32, outputFD: Int32, control: any ProcessControl) {
        self.pid = pid
        self.exitFD = exitFD
        self.channelFD = channelFD
        self.outputFD = outputFD
        self.control = control
    }
}

/// Killing, signalling and reaping one launched process. Called on the host's loop thread.
package protocol ProcessControl: AnyObject {
    /// Kills it at once (SIGKILL), and whatever it started.
    func kill()
    /// Sends `signal` (SIGSTOP and SIGCONT of chaos testing); a backend without signals ignores it.
    func signal(_ signal: Int32)
    /// Collects its end, once its exit descriptor said it ended.
    func reap() -> ReapOutcome
    /// True when none of its threads is running or runnable.
    func threadsAreIdle() -> Bool
    /// Closes its exit descriptor (after reaping).
    func close()
}

/// What reaping a process found.
package enum ReapOutcome {
    /// It has not ended yet.
    case running
    /// It ended with `status` (as `wait4` reports it), having used `cpuMilliseconds` of CPU, at
    /// most `peakRSSKiB` resident.
    case ended(status: Int32, cpuMilliseconds: UInt64, peakRSSKiB: UInt64)
    /// Something else in the host process waited for it: it is gone, its status unknown.
    case reapedElsewhere
    /// Reaping failed with `errno`.
    case failed(errno: Int32)
}

import CSandbox
import Glibc
import SandglassHost
import Synchronization
import WidgetKit

/// One embedded extension instance as the host sees a process: the host's end of its
/// socketpair, an output pipe (nothing is written to it), and an exit pipe whose read end becomes
/// readable (end of file) when it ended — killed by the host (signal 9) or its runtime stopped (the status its process
/// would have exited with).
final class EmbeddedProcess: ProcessControl, @unchecked Sendable {
    let pid: pid_t
    /// The host's end of the channel, and the runtime's.
    let channelFD: Int32
    let extensionFD: Int32
    /// The read ends of the output pipe and of the exit pipe.
    let outputFD: Int32
    let exitFD: Int32
    /// Set once, before `start()`: the runtime, asked whether provider code runs.
    var runtime: InProcessRuntime?
    private let state: Mutex<State>
    private let onEnd: @Sendable () -> Void

    private struct State {
        /// The wait status, once it ended.
        var status: Int32?
        /// The write ends of the output pipe and of the exit pipe, open until it ended.
        var writers: [Int32]
    }

    /// Makes the descriptors; `onEnd` is called once, when it ends.
    init(pid: pid_t, onEnd: @escaping @Sendable () -> Void) throws {
        var pair: [Int32] = [-1, -1]
        guard sg_socketpair_stream(&pair) == 0 else {
            throw EmbeddedLaunchError("socketpair for an embedded extension failed: errno \(errno)")
        }
        var output: [Int32] = [-1, -1]
        var exit: [Int32] = [-1, -1]
        let outputError = sg_pipe(&output)
        let exitError = outputError == 0 ? sg_pipe(&exit) : 0
        guard outputError == 0, exitError == 0 else {
            (pair + output + exit).filter { $0 >= 0 }.forEach { Glibc.close($0) }
            throw EmbeddedLaunchError("the pipes of an embedded extension could not be made: errno \(-(outputError + exitError))")
        }
        // The host's ends are non-blocking, as the sandbox's spawn leaves them; the runtime reads blocking.
        for fd in [pair[0], output[0], exit[0]] { _ = sg_set_nonblocking(fd) }
        self.pid = pid
        channelFD = pair[0]
        extensionFD = pair[1]
        outputFD = output[0]
        exitFD = exit[0]
        state = Mutex(State(writers: [output[1], exit[1]]))
        self.onEnd = onEnd
    }

    /// Records its end with `status` (the first end counts) and closes the write ends: its exit
    /// descriptor becomes readable (end of file).
    func ended(status: Int32) {
        let writers = state.withLock { state -> [Int32] in
            guard state.status == nil else { return [] }
            state.status = status
            defer { state.writers = [] }
            return state.writers
        }
        guard !writers.isEmpty else { return }
        writers.forEach { Glibc.close($0) }
        onEnd()
    }

    /// Ends it as a SIGKILL would: recorded as signal 9 at once; the runtime stops when the host,
    /// reaping it, closes the channel.
    func kill() {
        ended(status: SIGKILL)
    }

    /// Signals other than SIGKILL (chaos testing's SIGSTOP and SIGCONT) are not embedded: ignored.
    func signal(_ signal: Int32) {
        if signal == SIGKILL { kill() }
    }

    func reap() -> ReapOutcome {
        guard let status = state.withLock({ $0.status }) else { return .running }
        return .ended(status: status, cpuMilliseconds: 0, peakRSSKiB: 0)
    }

    /// Idle when no provider code runs on its runtime's request queue.
    func threadsAreIdle() -> Bool {
        !(runtime?.isRunningRequests ?? false)
    }

    /// Closes the exit pipe and lets the runtime go (it holds this instance until then).
    func close() {
        Glibc.close(exitFD)
        runtime = nil
    }
}

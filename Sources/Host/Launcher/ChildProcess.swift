import CSandbox
import Foundation
import Synchronization

/// A helper program run and waited for — a compiler for the clock shim, the benchmark's echo
/// child, the programs tests start — not an extension: no sandbox, no IPC channel.
///
/// Spawned with `posix_spawn`, descriptors 0 to 2 as asked and every other descriptor closed in
/// the child. Not Foundation's `Process`: on Linux its `run()` scans `/proc/self/fd` with a
/// fixed 256-byte copy of each entry's name, which reads past the directory buffer and crashes
/// the caller now and then when it has many descriptors open (swift-corelibs-foundation#5472) —
/// the host has one per extension and more.
package final class ChildProcess: Sendable {
    /// Where one of the child's standard descriptors goes.
    package enum Stream: Sendable {
        /// `/dev/null`.
        case null
        /// A new pipe, whose other end is ``standardInput``, ``standardOutput`` or ``standardError``.
        case pipe
        /// An open descriptor of the caller's (not closed by the child process).
        case descriptor(Int32)
    }

    /// How it ended.
    package enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)

        /// The exit status, or the signal's number (as Foundation's `terminationStatus`).
        package var status: Int32 {
            switch self {
            case .exited(let status), .signalled(let status): status
            }
        }
    }

    package let pid: pid_t
    /// The write end of its standard input, when it was `.pipe`.
    package let standardInput: FileHandle?
    /// The read ends of its standard output and error, when they were `.pipe`.
    package let standardOutput: FileHandle?
    package let standardError: FileHandle?
    /// Its pidfd: signals never reach a reused pid, and `poll` says when it ended.
    private let pidfd: Int32
    private let ending = Mutex<Termination?>(nil)

    /// Starts `executable` with `arguments` and exactly `environment`.
    package init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String],
        workingDirectory: String? = nil, standardInput: Stream = .null, standardOutput: Stream = .null, standardError: Stream = .null
    ) throws(ChildProcessError) {
        var opened: [Int32] = [] // the caller's ends of pipes, and /dev/null
        var childEnds: [Int32] = [] // what the child gets as 0-2, to close here after the spawn
        func closeAll() { (opened + childEnds).forEach { close($0) } }

        func make(_ stream: Stream, readByChild: Bool) throws(ChildProcessError) -> (child: Int32, ours: Int32?) {
            switch stream {
            case .descriptor(let fd):
                return (fd, nil)
            case .null:
                let fd = open("/dev/null", (readByChild ? O_RDONLY : O_WRONLY) | O_CLOEXEC)
                guard fd >= 0 else { throw ChildProcessError("open /dev/null", errno: errno, executable) }
                childEnds.append(fd)
                return (fd, nil)
            case .pipe:
                var fds: [Int32] = [-1, -1]
                let rc = sg_pipe(&fds)
                guard rc == 0 else { throw ChildProcessError("pipe", errno: -rc, executable) }
                let (child, ours) = readByChild ? (fds[0], fds[1]) : (fds[1], fds[0])
                childEnds.append(child)
                opened.append(ours)
                return (child, ours)
            }
        }

        let input: (child: Int32, ours: Int32?)
        let output: (child: Int32, ours: Int32?)
        let error: (child: Int32, ours: Int32?)
        do {
            input = try make(standardInput, readByChild: true)
            output = try make(standardOutput, readByChild: false)
            error = try make(standardError, readByChild: false)
        } catch {
            closeAll()
            throw error
        }

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let rc = argv.withUnsafeBufferPointer { argvBuffer in
            envp.withUnsafeBufferPointer { envpBuffer in
                sg_spawn_helper(
                    executable, argvBuffer.baseAddress, envpBuffer.baseAddress, workingDirectory,
                    input.child, output.child, error.child, &pid)
            }
        }
        childEnds.forEach { close($0) }
        childEnds = []
        guard rc == 0 else {
            closeAll()
            throw ChildProcessError("posix_spawn", errno: -rc, executable)
        }
        let pidfd = sg_pidfd_open(pid)
        guard pidfd >= 0 else {
            // Without its pidfd it cannot be waited for safely: end it now.
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            closeAll()
            throw ChildProcessError("pidfd_open", errno: -pidfd, executable)
        }
        self.pid = pid
        self.pidfd = pidfd
        self.standardInput = input.ours.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        self.standardOutput = output.ours.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        self.standardError = error.ours.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
    }

    deinit {
        close(pidfd)
    }

    /// Sends `signal` (SIGKILL unless told), unless it was already reaped.
    package func signal(_ signal: Int32 = SIGKILL) {
        ending.withLock { ending in
            if ending == nil { _ = sg_pidfd_send_signal(pidfd, signal) }
        }
    }

    /// True until it ended.
    package var isRunning: Bool {
        wait(timeout: .zero) == nil
    }

    /// Waits for it to end (blocking the calling thread) and reaps it.
    @discardableResult
    package func wait() -> Termination {
        // Blocks without a deadline: `wait(timeout:)` returns nil only when the deadline passed.
        wait(timeout: nil)!
    }

    /// Waits at most `timeout` (nil: without limit) for it to end; nil when it is still running.
    package func wait(timeout: Duration?) -> Termination? {
        if let known = ending.withLock({ $0 }) { return known }
        var poller = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
        let milliseconds = timeout.map { Int32(clamping: $0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000) }
        while true {
            let n = poll(&poller, 1, milliseconds ?? -1)
            if n > 0 { break }
            if n == 0 { return nil }
            if errno != EINTR { break }
        }
        return ending.withLock { ending in
            if let ending { return ending }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let ended: Termination = sg_wifsignaled(status) != 0 ? .signalled(sg_wtermsig(status)) : .exited(sg_wexitstatus(status))
            ending = ended
            return ended
        }
    }

    /// What a run to the end produced: how it ended, and all it wrote on stdout and stderr.
    package struct Outcome: Sendable {
        package let termination: Termination
        package let output: Data
        package let error: Data
    }

    /// Runs `executable` to its end with `input` on its standard input (then closed), reading its
    /// standard output and error as they come. Past `timeout` it is killed and an error thrown.
    package static func run(
        _ executable: String, _ arguments: [String] = [], environment: [String: String], workingDirectory: String? = nil,
        input: Data? = nil, timeout: Duration = .seconds(300)
    ) throws(ChildProcessError) -> Outcome {
        let child = try ChildProcess(
            executable, arguments, environment: environment, workingDirectory: workingDirectory,
            standardInput: input == nil ? .null : .pipe, standardOutput: .pipe, standardError: .pipe)
        let collected = child.collect(input: input, timeout: timeout)
        guard let termination = collected.termination else {
            throw ChildProcessError("waiting for it to end", errno: ETIMEDOUT, "\(executable) (killed after \(timeout))")
        }
        return Outcome(termination: termination, output: collected.output, error: collected.error)
    }

    /// Writes `input`, reads stdout and stderr to their ends, and reaps; kills it past `timeout`.
    private func collect(input: Data?, timeout: Duration) -> (termination: Termination?, output: Data, error: Data) {
        let deadline = ContinuousClock.now + timeout
        var output = Data(), error = Data()
        var pending = [UInt8](input ?? Data())
        var writer = standardInput.map { $0.fileDescriptor }
        var readers = [standardOutput, standardError].compactMap { $0?.fileDescriptor }
        if let writer { _ = sg_set_nonblocking(writer) }
        // The input's end is closed through its FileHandle, which then does not close it again.
        func closeInput() {
            try? standardInput?.close()
            writer = nil
        }
        if pending.isEmpty, writer != nil { closeInput() }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var timedOut = false
        while writer != nil || !readers.isEmpty {
            let left = deadline - ContinuousClock.now
            if left <= .zero {
                timedOut = true
                break
            }
            var fds = readers.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if let writer { fds.append(pollfd(fd: writer, events: Int16(POLLOUT), revents: 0)) }
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + 1)
            guard poll(&fds, nfds_t(fds.count), milliseconds) >= 0 || errno == EINTR else { break }
            for entry in fds where entry.revents != 0 {
                if entry.fd == writer {
                    let n = pending.withUnsafeBytes { write(entry.fd, $0.baseAddress, $0.count) }
                    if n > 0 { pending.removeFirst(n) }
                    if pending.isEmpty || (n < 0 && errno != EAGAIN && errno != EINTR) { closeInput() }
                } else {
                    let n = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                    if n > 0 {
                        if entry.fd == standardOutput?.fileDescriptor {
                            output.append(contentsOf: buffer[0..<n])
                        } else {
                            error.append(contentsOf: buffer[0..<n])
                        }
                    } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                        readers.removeAll { $0 == entry.fd }
                    }
                }
            }
        }
        if writer != nil { closeInput() }
        if timedOut {
            signal(SIGKILL)
            wait()
            return (nil, output, error)
        }
        return (wait(), output, error)
    }
}

/// A helper program that could not be started or waited for: the step, the errno, the program.
package struct ChildProcessError: Error, CustomStringConvertible {
    package let description: String

    init(_ step: String, errno: Int32, _ executable: String) {
        description = "\(step) for \(executable) failed: \(String(cString: strerror(errno))) (errno \(errno))"
    }
}

import CSandbox
import Foundation
import Glibc
import Synchronization

/// One thread with an epoll set: the host's file descriptors (IPC sockets, pidfds, log pipes,
/// seccomp listeners), precise monotonic timers (a timerfd), the serial executor of the host's
/// actor and the task executor its tasks prefer — so that everything the host decides happens on
/// this thread, in order, and a continuation resumed here runs here next (not after a detour
/// through the global pool, during which a virtual clock could jump).
///
/// Methods marked *loop only* must be called on the loop thread (from the host actor).
final class EventLoop: SerialExecutor, TaskExecutor, @unchecked Sendable {
    typealias FDHandler = (UInt32) -> Void
    /// A timer on the loop (CLOCK_MONOTONIC), for ``cancel(_:)``.
    typealias Timer = TimerHandle<EventLoop>

    private let epollFD: Int32
    private let wakeFD: Int32
    private let timerFD: Int32
    private let queue = Mutex<[UnownedJob]>([])
    private let threadID = Atomic<Int32>(0)
    private let stopping = Atomic<Bool>(false)
    private let hasExited = Atomic<Bool>(false)
    private var thread: Thread?
    private let exited = DispatchSemaphore(value: 0)
    /// Whether the epoll, eventfd and timerfd descriptors are still open: closed once, by
    /// ``shutdown()`` or the deinit, never written to after (their numbers may be another's then).
    private let descriptorsOpen = Mutex<Bool>(true)

    // Loop-confined state.
    private var handlers: [Int32: FDHandler] = [:]
    private var timers = TimerHeap<EventLoop>()
    private var armedDeadline: UInt64 = 0
    private var idleHandlers: [() -> Bool] = []
    private var endOfTurn: [() -> Void] = []

    init(name: String) throws(SandboxError) {
        epollFD = sg_epoll_create()
        guard epollFD >= 0 else { throw SandboxError(.loopSetup, errno: -epollFD, "epoll_create1") }
        wakeFD = sg_eventfd_create()
        timerFD = sg_timerfd_create()
        guard wakeFD >= 0, timerFD >= 0 else { throw SandboxError(.loopSetup, errno: -min(wakeFD, timerFD), "eventfd/timerfd") }
        _ = sg_epoll_add(epollFD, wakeFD, UInt32(SG_EPOLLIN))
        _ = sg_epoll_add(epollFD, timerFD, UInt32(SG_EPOLLIN))
        // The thread keeps the loop alive until it ends (after `stop()`).
        let thread = Thread {
            ThreadName.setCurrent(name)
            self.run()
        }
        thread.name = name
        thread.stackSize = 1 << 20
        self.thread = thread
        thread.start()
        while threadID.load(ordering: .acquiring) == 0 { sched_yield() }
    }

    deinit {
        closeDescriptors()
    }

    /// Closes the loop's descriptors, once. ``shutdown()`` closes them as it returns: left to the
    /// deinit, they stayed open until the loop thread's closure was let go of, after the thread
    /// ended — a host shut down still had them when it measured its descriptors.
    private func closeDescriptors() {
        descriptorsOpen.withLock { open in
            guard open else { return }
            open = false
            close(epollFD)
            close(wakeFD)
            close(timerFD)
        }
    }

    /// True on the loop thread.
    var inLoop: Bool { sg_gettid() == threadID.load(ordering: .relaxed) }

    /// Stops a debug build when called off the loop thread: the entry points of the parts
    /// confined to the loop call it. Nothing in release builds.
    func assertInLoop(file: StaticString = #file, line: UInt = #line) {
        assert(inLoop, "called off the host's loop thread", file: file, line: line)
    }

    // MARK: executor

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let wasEmpty = queue.withLock { q in
            q.append(unowned)
            return q.count == 1
        }
        if wasEmpty { wake() }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    func checkIsolated() {
        precondition(inLoop, "expected to run on the host's event loop thread")
    }

    // MARK: loop only

    /// Watches `fd` for `events` (EPOLLIN, EPOLLOUT…). Loop only.
    func register(_ fd: Int32, events: UInt32, _ handler: @escaping FDHandler) {
        assertInLoop()
        handlers[fd] = handler
        _ = sg_epoll_add(epollFD, fd, events)
    }

    /// Changes the events watched on `fd`. Loop only.
    func modify(_ fd: Int32, events: UInt32) {
        assertInLoop()
        _ = sg_epoll_modify(epollFD, fd, events)
    }

    /// Stops watching `fd` (before it is closed). Loop only.
    func unregister(_ fd: Int32) {
        assertInLoop()
        guard handlers.removeValue(forKey: fd) != nil else { return }
        _ = sg_epoll_remove(epollFD, fd)
    }

    /// Runs `body` on the loop at `deadline` (CLOCK_MONOTONIC nanoseconds). Loop only.
    @discardableResult
    func schedule(at deadline: UInt64, _ body: @escaping () -> Void) -> Timer {
        assertInLoop()
        let id = timers.insert(deadline: deadline, body)
        rearm()
        return id
    }

    /// Cancels a timer that has not fired. Loop only.
    func cancel(_ id: Timer) {
        assertInLoop()
        timers.cancel(id)
    }

    /// Called when the loop has nothing to run and would block; a handler returns true when it
    /// did something (the loop then looks again before sleeping). Loop only.
    func onIdle(_ handler: @escaping () -> Bool) {
        assertInLoop()
        idleHandlers.append(handler)
    }

    /// Runs `body` once the loop has handled this turn's descriptors, timers and jobs, before it
    /// looks for more: an IPC channel writes what a turn queued for it in one send. Loop only.
    func atEndOfTurn(_ body: @escaping () -> Void) {
        assertInLoop()
        endOfTurn.append(body)
    }

    /// Stops the loop thread after the jobs queued so far, waits for it (not from the loop), and
    /// closes the loop's descriptors.
    func shutdown() {
        precondition(!inLoop, "shutdown() waits for the loop thread; call it from elsewhere")
        stop()
        // Only the call that waited for the thread closes: a second one may come while it runs.
        if !hasExited.exchange(true, ordering: .acquiringAndReleasing) {
            exited.wait()
            closeDescriptors()
        }
    }

    /// Asks the loop thread to end after the jobs queued so far, without waiting.
    func stop() {
        stopping.store(true, ordering: .releasing)
        wake()
    }

    // MARK: private

    private func wake() {
        descriptorsOpen.withLock { open in
            guard open else { return }
            var one: UInt64 = 1
            _ = write(wakeFD, &one, 8)
        }
    }

    private func rearm() {
        let next = timers.earliestDeadline ?? 0
        guard next != armedDeadline else { return }
        armedDeadline = next
        _ = sg_timerfd_set(timerFD, next)
    }

    private func run() {
        threadID.store(sg_gettid(), ordering: .releasing)
        var events = [sg_event](repeating: sg_event(), count: 128)
        var block = true
        while !stopping.load(ordering: .acquiring) {
            let n = events.withUnsafeMutableBufferPointer { sg_epoll_wait(epollFD, $0.baseAddress, Int32($0.count), block ? -1 : 0) }
            if n < 0 && n != -EINTR { fatalError("epoll_wait failed: errno \(-n)") }
            for i in 0..<max(Int(n), 0) {
                let fd = events[i].fd
                let mask = events[i].events
                if fd == wakeFD {
                    var value: UInt64 = 0
                    _ = read(wakeFD, &value, 8)
                } else if fd == timerFD {
                    var value: UInt64 = 0
                    _ = read(timerFD, &value, 8)
                    armedDeadline = 0
                } else if let handler = handlers[fd] {
                    handler(mask)
                }
            }
            runDueTimers()
            runJobs()
            runEndOfTurn()
            // Once stopped, nothing else runs: the owners of timers and idle hooks may be gone.
            if stopping.load(ordering: .acquiring) { break }
            rearm()
            block = !queue.withLock({ !$0.isEmpty }) && !runIdleHandlers()
            runEndOfTurn()
        }
        handlers.removeAll()
        idleHandlers.removeAll()
        endOfTurn.removeAll()
        timers = TimerHeap<EventLoop>()
        thread = nil
        exited.signal()
    }

    private func runDueTimers() {
        let now = sg_monotonic_ns()
        while let body = timers.popDue(now: now) { body() }
    }

    /// Runs the queued jobs, and the jobs they queue, up to a few rounds (then the loop looks
    /// at its descriptors again): a task resumed here that hops once more — to an actor, to its
    /// preferred executor — still runs in this turn, and what it sends goes with the turn's other
    /// frames.
    private func runJobs() {
        let executor = asUnownedSerialExecutor()
        for _ in 0..<Self.jobRoundsPerTurn {
            let jobs = queue.withLock { q -> [UnownedJob] in
                let jobs = q
                q.removeAll(keepingCapacity: true)
                return jobs
            }
            if jobs.isEmpty { return }
            for job in jobs { job.runSynchronously(on: executor) }
        }
    }

    private static let jobRoundsPerTurn = 8

    private func runEndOfTurn() {
        while !endOfTurn.isEmpty {
            let bodies = endOfTurn
            endOfTurn.removeAll(keepingCapacity: true)
            for body in bodies { body() }
        }
    }

    private func runIdleHandlers() -> Bool {
        var did = false
        for handler in idleHandlers where handler() { did = true }
        return did
    }
}

import CSandbox
import Glibc

/// The deadline thread: SIGKILLs an extension at the end of its activation's (or launch's)
/// budget without waiting for the host's loop, which may be busy when the deadline comes.
///
/// One thread per host, at SCHED_FIFO where the host may (it runs as root), else SCHED_RR,
/// else the lowest nice value it may take — ``scheduling`` says which. It signals through the
/// pidfd the host holds from spawn, so a reaped process (its pid perhaps reused) is never
/// signalled. Reaping and recording stay on the loop: the loop arms a deadline beside its own
/// timer for the same instant, and settles it when the activation ends, when its timer fires or
/// when the process is reaped — learning then whether the thread killed the process, and when.
///
/// Ordering (see deadline_killer.c): each deadline is settled once, under the thread's lock.
/// Taken back by the loop first, it is never fired: an activation the loop completed is never
/// killed. At its instant the thread leaves the decision to the loop when the host has input of
/// the process it has not finished reading (unread bytes in its IPC socket, or the loop inside
/// its channel's read handler), since that input may be the reply that ends the activation in
/// time; the loop's timer then decides after reading, as it did before this thread.
final class DeadlineKiller: @unchecked Sendable {
    /// A deadline armed on the thread.
    struct ID: Hashable, Sendable {
        let value: UInt64
    }

    /// How a deadline ended, as the loop learns it.
    enum Settlement: Equatable {
        /// Taken back before its instant: nothing was sent.
        case cancelled
        /// The thread sent SIGKILL at this CLOCK_MONOTONIC instant.
        case killed(at: UInt64)
        /// It came and the thread sent nothing (input unread, or the process already dead).
        case leftToLoop
    }

    /// One process as the thread knows it. Confined to the loop, but for `reading`.
    final class Target {
        fileprivate let pointer: OpaquePointer
        /// Kept until the target is gone: the C side frees the killer after its targets.
        private let killer: DeadlineKiller
        private var released = false

        fileprivate init(_ pointer: OpaquePointer, killer: DeadlineKiller) {
            self.pointer = pointer
            self.killer = killer
        }

        /// The loop enters or leaves the process's channel read handler.
        func reading(_ isReading: Bool) {
            sg_kill_target_reading(pointer, isReading ? 1 : 0)
        }

        /// The channel is about to be closed: its descriptor is no longer looked at.
        func forgetChannel() {
            guard !released else { return }
            sg_kill_target_forget_channel(pointer)
        }

        /// Drops the process's deadlines; the thread never uses its pidfd after this. Before the
        /// pidfd is closed.
        func release() {
            guard !released else { return }
            released = true
            sg_kill_target_release(pointer)
        }

        deinit { release() }
    }

    /// Which scheduling the thread got, for `run.start` and the bench: `SCHED_FIFO priority 10`.
    let scheduling: String
    /// True when it runs at a real-time priority.
    let isRealTime: Bool
    private let killer: OpaquePointer

    /// The real-time priority asked for: above every normal thread, below the kernel's
    /// interrupt threads (50).
    static let priority: Int32 = 10

    /// Starts the thread; nil when it could not be made (the loop's timers still kill, later).
    init?() {
        var got = sg_killer_scheduling()
        guard let killer = sg_killer_start(Self.priority, &got) else { return nil }
        self.killer = killer
        switch Int(got.policy) {
        case SG_KILLER_FIFO: scheduling = "SCHED_FIFO priority \(got.value)"
        case SG_KILLER_RR: scheduling = "SCHED_RR priority \(got.value)"
        case SG_KILLER_NICE: scheduling = "nice \(got.value) (SCHED_FIFO refused: \(errnoName(got.error)))"
        default: scheduling = "nice \(got.value), unraised (SCHED_FIFO refused: \(errnoName(got.error)))"
        }
        isRealTime = Int(got.policy) == SG_KILLER_FIFO || Int(got.policy) == SG_KILLER_RR
    }

    deinit { sg_killer_free(killer) }

    /// Ends the thread; deadlines armed later never fire. Later calls do nothing.
    func stop() {
        sg_killer_stop(killer)
    }

    /// A target for the process of `pidfd`, whose IPC socket is `channelFD`; nil when out of memory.
    func target(pidfd: Int32, channelFD: Int32) -> Target? {
        guard let pointer = sg_killer_target(killer, pidfd, channelFD) else { return nil }
        return Target(pointer, killer: self)
    }

    /// Arms a SIGKILL of `target` at `deadline` (CLOCK_MONOTONIC nanoseconds).
    func arm(_ target: Target, at deadline: UInt64) -> ID? {
        let id = sg_killer_arm(killer, target.pointer, deadline)
        return id == 0 ? nil : ID(value: id)
    }

    /// Settles deadline `id` (once; later calls say `.cancelled`).
    func settle(_ id: ID) -> Settlement {
        var killedAt: UInt64 = 0
        switch Int(sg_killer_settle(killer, id.value, &killedAt)) {
        case SG_DEADLINE_KILLED: return .killed(at: killedAt)
        case SG_DEADLINE_LEFT: return .leftToLoop
        default: return .cancelled
        }
    }

    /// How the deadlines ended so far.
    var counts: sg_killer_counts {
        var counts = sg_killer_counts()
        sg_killer_get_counts(killer, &counts)
        return counts
    }
}

import CSandbox
import Foundation
import Glibc
import Testing

@testable import SandglassHost

/// The deadline thread with real child processes (`/bin/sleep`) and real pidfds: a deadline
/// taken back before it comes never kills; one that came kills through the pidfd, and settling
/// it says so; when the two race, what settling says is what happened to the process. Input the
/// host has not finished reading, a dead process and a released target are never signalled.
@Suite("Deadline thread", .serialized, .timeLimit(.minutes(2)))
struct DeadlineKillerTests {
    /// A `sleep` child with its pidfd.
    final class Child {
        let pid: pid_t
        let pidfd: Int32
        private var reaped = false

        init() throws {
            var pid: pid_t = 0
            let arguments: [String] = ["/bin/sleep", "600"]
            let argv = arguments.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            // The test's threads block signals: the child starts with none blocked, all default.
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var none = sigset_t(), all = sigset_t()
            sigemptyset(&none)
            sigfillset(&all)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setsigdefault(&attributes, &all)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            let rc = posix_spawn(&pid, "/bin/sleep", nil, &attributes, argv, environ)
            guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO) }
            self.pid = pid
            pidfd = sg_pidfd_open(pid)
            guard pidfd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: -pidfd) ?? .EIO) }
        }

        /// Its wait status once it ended, `nil` while it runs.
        func ended() -> Int32? {
            guard !reaped else { return nil }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
            reaped = true
            return status
        }

        /// Waits (polling, at most 30 s) for it to end; its wait status.
        func waitForEnd() -> Int32? {
            let deadline = sg_monotonic_ns() + 30_000_000_000
            while sg_monotonic_ns() < deadline {
                if let status = ended() { return status }
                usleep(200)
            }
            return nil
        }

        /// Sends it SIGTERM and returns the signal that ended it: SIGTERM when nothing killed it
        /// before (a SIGKILL sent earlier, even one still being delivered, is the one reported).
        func terminate() -> Int32? {
            guard !reaped else { return nil }
            Glibc.kill(pid, SIGTERM)
            var status: Int32 = 0
            guard waitpid(pid, &status, 0) == pid else { return nil }
            reaped = true
            return sg_wifsignaled(status) != 0 ? sg_wtermsig(status) : nil
        }

        /// Kills and reaps it (cleanup), then closes its pidfd.
        func end() {
            if !reaped {
                Glibc.kill(pid, SIGKILL)
                var status: Int32 = 0
                waitpid(pid, &status, 0)
                reaped = true
            }
            close(pidfd)
        }

        deinit { end() }
    }

    static func killedBySIGKILL(_ status: Int32?) -> Bool {
        guard let status else { return false }
        return sg_wifsignaled(status) != 0 && sg_wtermsig(status) == SIGKILL
    }

    /// Arms a sentinel after `instant` and waits for it to be killed: the thread has then been
    /// past every deadline up to `instant`.
    static func passThread(_ killer: DeadlineKiller, beyond instant: UInt64) throws {
        let sentinel = try Child()
        let target = try #require(killer.target(pidfd: sentinel.pidfd, channelFD: -1))
        let id = try #require(killer.arm(target, at: instant + 1_000_000))
        #expect(killedBySIGKILL(sentinel.waitForEnd()), "the sentinel was killed at its deadline")
        guard case .killed = killer.settle(id) else { Issue.record("the sentinel's deadline did not say killed"); return }
        target.release()
    }

    @Test("a deadline that comes kills through the pidfd; settling it says killed, at or after the deadline")
    func firesAtDeadline() throws {
        let killer = try #require(DeadlineKiller())
        let child = try Child()
        let target = try #require(killer.target(pidfd: child.pidfd, channelFD: -1))
        let deadline = sg_monotonic_ns() + 5_000_000
        let id = try #require(killer.arm(target, at: deadline))
        #expect(Self.killedBySIGKILL(child.waitForEnd()))
        guard case .killed(let at) = killer.settle(id) else { Issue.record("not killed"); return }
        #expect(at >= deadline)
        #expect(killer.settle(id) == .cancelled, "settled once: a second settle knows nothing of it")
        target.release()
        #expect(killer.counts.fired == 1)
        killer.stop()
    }

    @Test("a deadline taken back before it comes never kills, nor does one whose target was released")
    func takenBackNeverKills() throws {
        let killer = try #require(DeadlineKiller())
        let cancelled = try Child(), released = try Child()
        let cancelledTarget = try #require(killer.target(pidfd: cancelled.pidfd, channelFD: -1))
        let releasedTarget = try #require(killer.target(pidfd: released.pidfd, channelFD: -1))
        let deadline = sg_monotonic_ns() + 1_000_000_000 // room for a starved test thread to take it back first
        let id = try #require(killer.arm(cancelledTarget, at: deadline))
        _ = try #require(killer.arm(releasedTarget, at: deadline))
        #expect(killer.settle(id) == .cancelled)
        releasedTarget.release()
        try Self.passThread(killer, beyond: deadline)
        #expect(cancelled.terminate() == SIGTERM, "taken back: never SIGKILLed, still running after its deadline")
        #expect(released.terminate() == SIGTERM, "released: never SIGKILLed, still running after its deadline")
        cancelledTarget.release()
        killer.stop()
    }

    @Test("cancel and fire race at the deadline: whatever settling says is what happened to the process")
    func cancelFireRace() throws {
        let killer = try #require(DeadlineKiller())
        var children: [Child] = []
        var targets: [DeadlineKiller.Target] = []
        var ids: [DeadlineKiller.ID] = []
        var deadlines: [UInt64] = []
        let count = 45
        for _ in 0..<count {
            let child = try Child()
            children.append(child)
            targets.append(try #require(killer.target(pidfd: child.pidfd, channelFD: -1)))
        }
        // A third taken back well before, a third racing within ±300 µs of the deadline, a
        // third well after (the thread has fired by then, unless it is very late).
        let base = sg_monotonic_ns() + 30_000_000
        var settleAt: [UInt64] = []
        var random = SystemRandomNumberGenerator()
        for i in 0..<count {
            let deadline = base + UInt64(i) * 4_000_000
            deadlines.append(deadline)
            ids.append(try #require(killer.arm(targets[i], at: deadline)))
            switch i % 3 {
            case 0: settleAt.append(deadline - 3_000_000)
            case 1: settleAt.append(deadline - 300_000 + UInt64.random(in: 0...600_000, using: &random))
            default: settleAt.append(deadline + 3_000_000)
            }
        }
        var outcomes: [DeadlineKiller.Settlement] = []
        var settledEarly = Set<Int>() // settled a millisecond or more before the deadline, surely in time
        for i in 0..<count {
            while sg_monotonic_ns() < settleAt[i] {} // to the instant, not a synchronisation
            let before = sg_monotonic_ns()
            outcomes.append(killer.settle(ids[i]))
            if before + 1_000_000 <= deadlines[i] { settledEarly.insert(i) }
        }
        try Self.passThread(killer, beyond: deadlines.last!)
        var taken = 0, killed = 0
        for i in 0..<count {
            switch outcomes[i] {
            case .cancelled:
                taken += 1
                #expect(children[i].terminate() == SIGTERM, "deadline \(i) was taken back, yet its process was SIGKILLed")
            case .killed(let at):
                killed += 1
                #expect(!settledEarly.contains(i), "deadline \(i) was taken back before it was due, yet it fired")
                #expect(at >= deadlines[i])
                #expect(Self.killedBySIGKILL(children[i].waitForEnd()), "deadline \(i) says killed, yet its process was not SIGKILLed")
            case .leftToLoop:
                Issue.record("deadline \(i) was left to the loop, with no channel and a live process")
            }
        }
        // Both sides of the race were reached — unless this thread was kept off the CPU past every
        // early settling (a loaded machine), when only the kills can be seen.
        #expect(
            (taken > 0 || settledEarly.isEmpty) && killed > 0, "both sides of the race were reached (\(taken) taken back, \(killed) killed)"
        )
        for target in targets { target.release() }
        killer.stop()
    }

    @Test(
        "input the host has not read or is reading, or a call waiting for its seccomp verdict, leaves the deadline to the loop: nothing is sent"
    )
    func unreadInputLeftToLoop() throws {
        let killer = try #require(DeadlineKiller())
        var pair: [Int32] = [-1, -1]
        #expect(sg_socketpair_stream(&pair) == 0)
        defer { close(pair[0]); close(pair[1]) }
        var byte: UInt8 = 1
        #expect(write(pair[1], &byte, 1) == 1) // a reply the loop has not read yet

        var verdict: [Int32] = [-1, -1]
        #expect(sg_pipe(&verdict) == 0)
        defer { close(verdict[0]); close(verdict[1]) }
        #expect(write(verdict[1], &byte, 1) == 1) // a notification the loop has not answered

        let unread = try Child(), reading = try Child(), forgotten = try Child(), waiting = try Child()
        let waitingTarget = try #require(killer.target(pidfd: waiting.pidfd, channelFD: -1, listenerFD: verdict[0]))
        let unreadTarget = try #require(killer.target(pidfd: unread.pidfd, channelFD: pair[0]))
        let readingTarget = try #require(killer.target(pidfd: reading.pidfd, channelFD: -1))
        let forgottenTarget = try #require(killer.target(pidfd: forgotten.pidfd, channelFD: pair[0]))
        readingTarget.reading(true)
        forgottenTarget.forgetChannel()
        let deadline = sg_monotonic_ns() + 5_000_000
        let ids = try [unreadTarget, readingTarget, forgottenTarget, waitingTarget].map { try #require(killer.arm($0, at: deadline)) }
        try Self.passThread(killer, beyond: deadline)
        #expect(killer.settle(ids[0]) == .leftToLoop)
        #expect(killer.settle(ids[1]) == .leftToLoop)
        #expect(killer.settle(ids[3]) == .leftToLoop, "a call waiting for the host's seccomp verdict")
        #expect(
            unread.terminate() == SIGTERM && reading.terminate() == SIGTERM && waiting.terminate() == SIGTERM,
            "left to the loop: not killed")
        guard case .killed = killer.settle(ids[2]) else { Issue.record("a channel forgotten is not looked at: killed"); return }
        #expect(Self.killedBySIGKILL(forgotten.waitForEnd()))
        for target in [unreadTarget, readingTarget, forgottenTarget, waitingTarget] { target.release() }
        killer.stop()
    }

    @Test("a process reaped before its deadline is not signalled (its pid may be another's by then): left to the loop")
    func reapedNotSignalled() throws {
        let killer = try #require(DeadlineKiller())
        let child = try Child()
        Glibc.kill(child.pid, SIGKILL)
        _ = child.waitForEnd()
        let target = try #require(killer.target(pidfd: child.pidfd, channelFD: -1))
        let deadline = sg_monotonic_ns() + 1_000_000
        let id = try #require(killer.arm(target, at: deadline))
        try Self.passThread(killer, beyond: deadline)
        #expect(killer.settle(id) == .leftToLoop)
        #expect(killer.counts.not_sent == 1)
        target.release()
        killer.stop()
    }
}

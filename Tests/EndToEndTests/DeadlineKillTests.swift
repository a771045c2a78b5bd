import Foundation
import Glibc
@_spi(Measurements) import SandglassHost
import Testing

/// Budget kills do not wait for the host's loop: its deadline thread SIGKILLs a hanging
/// extension at its deadline while the loop is held, and the loop records the kill as
/// `timeBudget` when it comes back. An extension that answered before its deadline is not
/// killed, even when the host reads the answer after it: the reply waiting in the socket, or
/// being handled by the loop, leaves the decision to the loop.
@Suite("Deadline kills", .serialized, .timeLimit(.minutes(3)))
struct DeadlineKillTests {
    static let hanging = "com.example.hanging.widget"
    static let leaderboard = "com.example.leaderboard.widget"

    /// Polls `condition` every millisecond for up to `seconds`.
    static func eventually(_ seconds: Double, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return condition()
    }

    @Test("a hanging getTimeline is SIGKILLed at its deadline while the host's loop is held; the loop then records timeBudget")
    func hangingKilledWithoutTheLoop() async throws {
        // A long idle budget: the launched process is the one the activation uses, however slow the machine.
        try await withHost({
            $0.schedulesWidgets = false; $0.budgetOverrides.idle = .seconds(600)
        }) { host in
            try await host.install(Examples.app("Hanging.app"))
            let pid = try #require(await host.launch(Self.hanging))
            let hold = await host.holdLoop(at: .requestWritten, of: Self.hanging, limit: .seconds(90))
            let activation = Task { await host.activate(Self.hanging, .timeline, widget: "Hanging") }
            // Only the loop reaps: a process dead while the loop is held stays a zombie.
            let diedWhileHeld = await Self.eventually(60) { hold.hasBegun && ProcessHygiene.status(of: pid)?.state == "Z" }
            let stillHeld = !hold.hasEnded
            hold.release()
            #expect(diedWhileHeld && stillHeld, "the process died at its deadline while the loop was held")

            let outcome = await activation.value
            #expect(outcome == .killed(.timeBudget))
            let killed = try await host.waitFor("killed") { $0.pid == pid }
            #expect(killed.string("reason") == "timeBudget")
            #expect(killed.string("detail") == "timeline ran over its 1 s budget")
            let deadline = try #require(killed.int("deadlineNs")), killedAt = try #require(killed.int("killedAtNs"))
            #expect(killedAt >= deadline, "not before the deadline")
            let exited = try await host.waitFor("exited") { $0.pid == pid }
            #expect(exited.string("signal") == "SIGKILL")
            #expect(exited.string("reason") == "timeBudget")
            let end = try await host.waitFor("activation.end") { $0.pid == pid && $0.string("kind") == "timeline" }
            #expect(end.string("outcome") == "killed" && end.string("reason") == "timeBudget")
            #expect((host.deadlineThread()?.killed ?? 0) >= 1)
        }
    }

    /// Runs a timeline activation of the Leaderboard example whose reply the host reads late:
    /// the loop is held at `step` until the deadline thread has come to the deadline (and left
    /// it to the loop). The activation must end ok, the process unkilled.
    private func answeredInTime(holdingAt step: ProtocolStep) async throws {
        try await withHost({
            $0.schedulesWidgets = false; $0.budgetOverrides.timeline = .seconds(3); $0.budgetOverrides.idle = .seconds(600)
        }) { host in
            try await host.install(Examples.app("Leaderboard.app"))
            let pid = try #require(await host.launch(Self.leaderboard))
            let before = host.deadlineThread()?.leftToLoop ?? 0
            let hold = await host.holdLoop(at: step, of: Self.leaderboard, limit: .seconds(90))
            let activation = Task { await host.activate(Self.leaderboard, .timeline, widget: "Leaderboard") }
            // Until the thread came to the deadline — or, were it wrong, killed the process.
            _ = await Self.eventually(60) {
                hold.hasBegun && ((host.deadlineThread()?.leftToLoop ?? 0) > before || ProcessHygiene.status(of: pid)?.state == "Z")
            }
            let cameWhileHeld = (host.deadlineThread()?.leftToLoop ?? 0) > before
            let stillHeld = !hold.hasEnded
            hold.release()
            #expect(cameWhileHeld && stillHeld, "the deadline came while the loop held the reply, and was left to the loop")

            let outcome = await activation.value
            guard case .timeline? = outcome else { Issue.record("the activation ended \(String(describing: outcome))"); return }
            let events = await host.events()
            #expect(!events.contains { $0.name == "killed" && $0.pid == pid }, "answered in time: not killed")
            #expect(ProcessHygiene.status(of: pid).map { $0.state != "Z" } == true, "still running")
            let end = try #require(events.first { $0.name == "activation.end" && $0.pid == pid && $0.string("kind") == "timeline" })
            #expect(end.string("outcome") == "ok")
        }
    }

    @Test("a timeline written before its deadline and still unread in the socket when the deadline comes is not killed")
    func replyUnreadAtDeadline() async throws {
        try await answeredInTime(holdingAt: .requestWritten)
    }

    @Test("a timeline the loop is reading as its deadline comes is not killed")
    func replyBeingReadAtDeadline() async throws {
        try await answeredInTime(holdingAt: .replyRead)
    }
}

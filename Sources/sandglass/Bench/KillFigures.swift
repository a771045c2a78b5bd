import CSandbox
import Foundation
import Glibc
@_spi(Measurements) import SandglassHost

/// Budget-kill precision: the Hanging example (its `getTimeline` never returns) under a short
/// timeline budget; from the budget's deadline on CLOCK_MONOTONIC (`deadlineNs` of `killed`) to
/// the SIGKILL sent (`killedAtNs`: the host's deadline thread) and to the process reaped
/// (`reapedAtNs` of `exited`: the loop). Baseline, interleaved: the same executable started bare
/// (it said hello on a socket nobody answers), SIGKILLed by a thread that slept to the same
/// deadline with `clock_nanosleep(TIMER_ABSTIME)` and reaped with a blocking `waitpid`. The load
/// average is read before and after, since both figures' tails are the machine's when it is busy.
enum KillFigures {
    static let bundle = "com.example.hanging.widget"
    static let budget = Duration.milliseconds(20)

    struct Result {
        /// Deadline → reaped, and deadline → SIGKILL sent against the raw thread's lateness.
        var row: FigureRow
        var signalRow: FigureRow
        /// Deadline → SIGKILL sent (the timer's lateness), and SIGKILL → reaped.
        var timerLate: Distribution
        var killToReap: Distribution
        var rawTimerLate: Distribution
        /// The 1-minute load average before and after the figure.
        var load: (before: Double, after: Double)
        /// The deadline thread's scheduling, and how its deadlines ended.
        var thread: (scheduling: String, killed: Int, leftToLoop: Int, takenBack: Int)?
    }

    private struct Stamps: Sendable {
        var deadline: [Int32: UInt64] = [:]
        var killed: [Int32: UInt64] = [:]
        var reaped: [Int32: UInt64] = [:]
    }

    static func measure(_ bench: BenchContext) async throws -> Result {
        var configuration = HostConfiguration.temporary()
        configuration.schedulesWidgets = false
        configuration.budgetOverrides.timeline = budget
        configuration.budgetOverrides.idle = .seconds(600)
        // Every kill is a failure the extension is to blame for: no backoff, never permanent.
        configuration.relaunchBackoff = RelaunchBackoff(initial: .zero, maximum: .zero, permanentFailureCount: 0)
        let host = try await ExtensionHost(configuration)
        defer { removeTemporaryDataDirectory(configuration.dataDirectory) }
        try await host.install(bench.examples + "/Hanging.app")
        let executable = bench.examples + "/Hanging.app/PlugIns/HangingWidget.appex/HangingWidget"

        let stamps = Locked(Stamps())
        let observer = await host.observeStamped([.killed, .exited]) { event, _ in
            guard let pid = event.pid else { return }
            stamps.withLock { s in
                if event.kind == .killed, let deadline = event.int("deadlineNs"), let killed = event.int("killedAtNs") {
                    s.deadline[pid] = UInt64(deadline)
                    s.killed[pid] = UInt64(killed)
                } else if event.kind == .exited, let reaped = event.int("reapedAtNs") {
                    s.reaped[pid] = UInt64(reaped)
                }
            }
        }
        var precision = Distribution(), late = Distribution(), toReap = Distribution()
        var raw = Distribution(), rawLate = Distribution()
        let count = bench.samples(quick: 60, full: 300)
        let loadBefore = loadAverage()
        bench.progress("budget kills", 0)
        for i in 0..<(count + 3) {
            _ = await host.activate(bundle, .timeline, widget: "Hanging")
            let sample = try await onDedicatedThread { try rawKill(executable) }
            guard i >= 3 else { continue }
            raw.record(sample.reaped)
            rawLate.record(sample.killed)
            if i % 10 == 0 { bench.progress("budget kills", Double(i) / Double(count)) }
        }
        await host.removeStampedObserver(observer)
        let thread = host.deadlineThread()
        await host.shutdown()
        let collected = stamps.withLock { $0 }
        for (pid, deadline) in collected.deadline.sorted(by: { $0.key < $1.key }) {
            guard let reaped = collected.reaped[pid], let killed = collected.killed[pid] else { continue }
            precision.record(reaped - deadline)
            late.record(killed &- deadline)
            toReap.record(reaped - killed)
        }
        let row = FigureRow(
            key: "kill", name: "budget deadline → process reaped", distribution: precision,
            baselineName: "clock_nanosleep → kill → waitpid, same binary", baseline: raw, target: .p99Milliseconds(2))
        let signalRow = FigureRow(
            key: "kill.signal", name: "budget deadline → SIGKILL sent", distribution: late,
            baselineName: "raw thread: clock_nanosleep lateness", baseline: rawLate, target: .p99Ratio(2))
        return Result(
            row: row, signalRow: signalRow, timerLate: late, killToReap: toReap, rawTimerLate: rawLate,
            load: (loadBefore, loadAverage()), thread: thread)
    }

    /// The 1-minute load average.
    static func loadAverage() -> Double {
        var loads = [Double](repeating: 0, count: 3)
        return getloadavg(&loads, 3) > 0 ? loads[0] : .nan
    }

    /// One raw kill: (deadline → reaped, deadline → SIGKILL sent), in nanoseconds.
    private static func rawKill(_ executable: String) throws -> (reaped: UInt64, killed: UInt64) {
        var sockets: [Int32] = [-1, -1]
        guard sg_socketpair_stream(&sockets) == 0 else { throw BadInput("socketpair failed: errno \(errno)") }
        defer { close(sockets[0]) }
        let child = try RawChild.spawn(
            executable,
            environment: [
                "SANDGLASS_IPC_FD=3", "SANDGLASS_BUNDLE_IDENTIFIER=\(bundle)",
                "HOME=/tmp", "PATH=/usr/bin:/bin"
            ], fd3: sockets[1])
        close(sockets[1])
        _ = readAtLeast(sockets[0], 4) // its hello: it is running
        let deadline =
            sg_monotonic_ns() + UInt64(budget.components.attoseconds / 1_000_000_000) + UInt64(budget.components.seconds) * 1_000_000_000
        var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
        let killedAt = sg_monotonic_ns()
        kill(child.pid, SIGKILL)
        child.wait()
        let reaped = sg_monotonic_ns()
        return (reaped - deadline, killedAt &- deadline)
    }
}

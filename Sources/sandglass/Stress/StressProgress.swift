import Synchronization

/// The progress of a stress run, on the shared ``ProgressLine`` (a rewritten line on a
/// terminal, plain lines elsewhere): iterations done, the host now running, kills so far.
final class StressProgress: Sendable {
    private struct State {
        var done = 0
        var kills = 0
        var hostKills = 0
        var host = 0
        var hostPid: Int32 = 0
    }

    private let line: ProgressLine
    private let state = Mutex(State())
    /// The iterations of the run (this shard's), nil for a `--duration` run.
    private let total: Int?

    init(total: Int?, enabled: Bool) {
        self.total = total
        line = ProgressLine("stress", enabled: enabled)
    }

    /// Host `index` (pid `pid`) started.
    func host(_ index: Int, pid: Int32) {
        state.withLock {
            $0.host = index; $0.hostPid = pid
        }
        draw()
    }

    /// One more iteration done; `kills` extensions killed so far in the run.
    func iterationDone(kills: Int) {
        state.withLock {
            $0.done += 1; $0.kills = kills
        }
        draw()
    }

    func hostKilled() {
        state.withLock { $0.hostKills += 1 }
    }

    /// Erases the line (terminal) before the summary.
    func finish() {
        line.finish()
    }

    private func draw() {
        let s = state.withLock { $0 }
        let fraction = total.map { $0 > 0 ? Double(s.done) / Double($0) : 1 }
        let of = total.map { "/\($0)" } ?? ""
        line.update(
            fraction,
            "iteration \(s.done)\(of) · host \(s.host + 1) (pid \(s.hostPid)) · \(s.kills + s.hostKills) kills (\(s.hostKills) of the host) · \(line.elapsed)"
        )
    }
}

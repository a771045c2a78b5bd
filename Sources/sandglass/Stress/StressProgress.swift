import Foundation
import Glibc
import Synchronization

/// The progress line of a long stress run on standard error: rewritten in place on a terminal
/// (at most ten times a second), a plain line every ten seconds otherwise.
final class StressProgress: Sendable {
    private struct State {
        var iteration = 0
        var kills = 0
        var hostKills = 0
        var host = 0
        var hostPid: Int32 = 0
        var lastDrawn: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    private let total: Int?
    private let started = ContinuousClock.now
    private let isTerminal = isatty(2) == 1
    private let enabled: Bool

    init(total: Int?, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    func host(_ index: Int, pid: Int32) {
        state.withLock { $0.host = index; $0.hostPid = pid }
        draw(force: !isTerminal)
    }

    func iteration(_ iteration: Int, kills: Int) {
        state.withLock { $0.iteration = iteration + 1; $0.kills = kills }
        draw(force: false)
    }

    func hostKilled() {
        state.withLock { $0.hostKills += 1 }
    }

    /// Clears the line on a terminal before other output.
    func finish() {
        guard enabled, isTerminal else { return }
        write("\r\u{1B}[K")
    }

    private func draw(force: Bool) {
        guard enabled else { return }
        let now = ContinuousClock.now
        let text: String? = state.withLock { s in
            let interval: Duration = isTerminal ? .milliseconds(100) : .seconds(10)
            if !force, let last = s.lastDrawn, now - last < interval { return nil }
            s.lastDrawn = now
            let elapsed = Double((now - started).components.seconds)
            let of = total.map { "/\($0)" } ?? ""
            return "stress: iteration \(s.iteration)\(of) · host \(s.host + 1) (pid \(s.hostPid)) · \(s.kills) kills · \(s.hostKills) host kills · \(Int(elapsed)) s"
        }
        guard let text else { return }
        write(isTerminal ? "\r\u{1B}[K" + text : text + "\n")
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

import Foundation
import SandglassHost
import Synchronization

/// Watches a running host's events and keeps a ``ProgressLine`` up to date: how far along the
/// run's clock it is, and what happened so far.
final class RunProgress: Sendable {
    private struct Counts {
        var lastT = 0.0
        var activations = 0
        var kills = 0
        var timelines = 0
    }

    private let line: ProgressLine
    private let duration: Duration
    private let virtualClock: Bool
    private let counts = Mutex(Counts())
    private let tasks = Mutex<[Task<Void, Never>]>([])

    init(_ line: ProgressLine, duration: Duration, virtualClock: Bool) {
        self.line = line
        self.duration = duration
        self.virtualClock = virtualClock
    }

    /// Starts following `host` (no-op when the line is off).
    func follow(_ host: ExtensionHost) async {
        guard line.mode != .off else { return }
        let stream = await host.eventStream(replay: true)
        let watcher = Task {
            for await event in stream {
                self.counts.withLock { c in
                    c.lastT = max(c.lastT, event.t)
                    switch event.kind {
                    case .activationEnd: c.activations += 1
                    case .killed: c.kills += 1
                    case .timeline: c.timelines += 1
                    default: break
                    }
                }
            }
        }
        let ticker = Task {
            let started = ContinuousClock.now
            while !Task.isCancelled {
                self.draw(realElapsed: ContinuousClock.now - started)
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
        tasks.withLock { $0 = [watcher, ticker] }
    }

    /// Stops and erases the line.
    func stop() {
        for task in tasks.withLock({ $0 }) { task.cancel() }
        line.finish()
    }

    private func draw(realElapsed: Duration) {
        let c = counts.withLock { $0 }
        let total = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        let done =
            virtualClock ? c.lastT : Double(realElapsed.components.seconds) * 1000 + Double(realElapsed.components.attoseconds) / 1e15
        let fraction = total > 0 ? min(1, done / total) : nil
        let detail =
            "\(Self.label(done)) of \(Self.label(total)) on the \(virtualClock ? "virtual" : "real") clock · \(c.activations) activations · \(c.timelines) timelines · \(c.kills) kills · \(line.elapsed)"
        line.update(fraction, detail)
    }

    /// `3h12m` style, from milliseconds.
    static func label(_ ms: Double) -> String {
        let s = Int(ms / 1000)
        if s < 60 { return String(format: "%.1fs", ms / 1000) }
        if s < 3600 { return "\(s / 60)m\(String(format: "%02d", s % 60))s" }
        if s < 86_400 { return "\(s / 3600)h\(String(format: "%02d", (s % 3600) / 60))m" }
        return "\(s / 86_400)d\(String(format: "%02d", (s % 86_400) / 3600))h"
    }
}

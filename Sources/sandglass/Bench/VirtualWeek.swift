import Foundation
import SandglassHost
import SandglassIPC

/// The total length of the union of the intervals.
private func unionLength(_ intervals: [(Double, Double)]) -> Double {
    var total = 0.0
    var current: (Double, Double)?
    for interval in intervals.sorted(by: { $0.0 < $1.0 }) {
        if let c = current, interval.0 <= c.1 {
            current = (c.0, max(c.1, interval.1))
        } else {
            if let c = current { total += c.1 - c.0 }
            current = interval
        }
    }
    if let c = current { total += c.1 - c.0 }
    return total
}

/// The virtual-clock figure: days of reloads of many widgets in seconds of wall time.
///
/// Fleet.app (five extensions of ten kinds each, mixed policies: `.after` 1 min to 6 h,
/// `.atEnd` with one to six entries, `.never` with WidgetCenter requests) runs for `days`
/// virtual days; the speed-up is virtual seconds per wall second.
struct VirtualWeek {
    /// What one run measured.
    struct Figures {
        let days: Int
        let widgets: Int
        let extensions: Int
        let warm: Bool
        let wallSeconds: Double
        let spawns: Int
        let activations: Int
        let timelines: Int
        let charged: Int
        let exempt: Int
        let denied: Int
        let events: Int
        /// Wall time with at least one activation in flight (request sent → reply decoded).
        let activationSeconds: Double
        /// Wall time with at least one launch in flight (spawn → hello), outside activations.
        let launchSeconds: Double
        let budgetViolations: Int

        var speedUp: Double { Double(days) * 86_400 / wallSeconds }

        var json: [String: Any] {
            [
                "days": days, "widgets": widgets, "extensions": extensions, "warm": warm, "wall_s": wallSeconds,
                "speedup": speedUp, "spawns": spawns, "activations": activations, "timelines": timelines,
                "reloads": ["charged": charged, "exempt": exempt, "denied": denied], "events": events,
                "activation_s": activationSeconds, "launch_s": launchSeconds, "budget_violations": budgetViolations
            ]
        }

        var rendered: String {
            let rest = max(0, wallSeconds - activationSeconds - launchSeconds)
            return """
                \(days) virtual days · \(widgets) widgets in \(extensions) extensions · \(warm ? "processes kept warm (idle budget longer than the run)" : "default 5 s idle budget: a cold launch for most reloads")
                  wall \(String(format: "%.2f", wallSeconds)) s → speed-up \(String(format: "%.0f", speedUp))× (virtual s per wall s)
                  \(activations) activations, \(timelines) timelines, \(spawns) launches; reloads \(charged) charged, \(exempt) exempt, \(denied) denied; \(events) events; budget violations: \(budgetViolations)
                  where the wall time went: with an activation in flight \(String(format: "%.2f", activationSeconds)) s (IPC, the extensions' own work, and the host's work meanwhile) · launching \(String(format: "%.2f", launchSeconds)) s · host alone (scheduling, the ledger, events, kills, reaping, clock jumps) \(String(format: "%.2f", rest)) s
                """
        }
    }

    /// Runs Fleet.app from `examples` for `days` virtual days.
    static func measure(examples: String, days: Int, warm: Bool) async throws -> Figures {
        var configuration = HostConfiguration.temporary()
        configuration.clock = .virtual
        if warm { configuration.budgetOverrides.idle = .seconds(Int64(days + 1) * 86_400) }
        let host = try await ExtensionHost(configuration)
        defer { removeTemporaryDataDirectory(configuration.dataDirectory) }
        let app = try await host.install(examples + "/Fleet.app")
        let started = ContinuousClock.now
        await host.start()
        await host.advance(by: .seconds(Int64(days) * 86_400))
        let wall = started.duration(to: .now)
        await host.shutdown()
        let events = await host.events()
        let ledger = ReloadLedgerEntry.entries(in: events)
        // While anything is in flight the virtual clock does not jump, so these run-time
        // intervals are wall time; their union says how much of the wall time they took.
        var activations: [(Double, Double)] = [], launches: [(Double, Double)] = []
        var open: [Int64: Double] = [:], spawned: [Int32: Double] = [:]
        for event in events {
            switch event.kind {
            case .activationStart: if let id = event.int("activation") { open[id] = event.t }
            case .activationEnd:
                if let id = event.int("activation"), let start = open.removeValue(forKey: id) { activations.append((start, event.t)) }
            case .spawned: if let pid = event.pid { spawned[pid] = event.t }
            case .hello, .exited: if let pid = event.pid, let start = spawned.removeValue(forKey: pid) { launches.append((start, event.t)) }
            default: break
            }
        }
        let activationMs = unionLength(activations)
        let launchMs = max(0, unionLength(activations + launches) - activationMs)
        let summary = RunSummary(events: events)
        return Figures(
            days: days, widgets: WidgetExplanation.widgets(in: events).count, extensions: app.extensions.count, warm: warm,
            wallSeconds: Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18,
            spawns: summary.spawns, activations: summary.activations, timelines: summary.timelines,
            charged: ledger.filter { $0.decision == .charged }.count, exempt: ledger.filter { $0.decision == .exempt }.count,
            denied: ledger.filter { $0.decision == .denied }.count, events: events.count,
            activationSeconds: activationMs / 1000, launchSeconds: launchMs / 1000,
            budgetViolations: ReloadAudit.budgetViolations(in: events).count)
    }
}

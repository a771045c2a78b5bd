/// Checks a run's ledger: that no widget was charged more reloads than its budget in any window
/// of 24 hours. Works on any event list — a live host's or one read back from a log.
public enum ReloadAudit {
    /// A widget charged more reloads than its limit within one window.
    public struct Violation: Sendable, Hashable, CustomStringConvertible {
        public let bundle: String
        public let kind: String
        public let family: String
        public let limit: Int
        /// Charged reloads in the window that starts at `windowStart`.
        public let count: Int
        /// Run time (ms) of the first charge of the window.
        public let windowStart: Double

        public var description: String {
            "\(kind) of \(bundle) (\(family)) was charged \(count) reloads within 24 h from \(TraceRenderer.stamp(windowStart)); its budget is \(limit)"
        }
    }

    /// The charged reloads of each widget (`bundle/kind/family`), as run times in ms, with the limit recorded.
    public static func chargedReloads(in events: [HostEvent]) -> [String: (times: [Double], limit: Int?)] {
        var result: [String: (times: [Double], limit: Int?)] = [:]
        for event in events where event.kind == .reloadRequested && event["charged"] == .bool(true) {
            let id = widgetID(event)
            result[id, default: ([], nil)].times.append(event.t)
            if let limit = event.int("limit") { result[id]!.limit = Int(limit) }
        }
        return result
    }

    /// The most charges within any window of `windowMs` in sorted `times` (a window [t, t + w)).
    /// Times are compared in whole microseconds, the log's precision.
    public static func maximumInAnyWindow(_ times: [Double], windowMs: Double = 86_400_000) -> (count: Int, start: Double) {
        let micros = times.map { Int64(($0 * 1000).rounded()) }
        let window = Int64((windowMs * 1000).rounded())
        var best = (count: 0, start: 0.0)
        var first = 0
        for (last, t) in micros.enumerated() {
            while t - micros[first] >= window { first += 1 }
            if last - first + 1 > best.count { best = (last - first + 1, times[first]) }
        }
        return best
    }

    /// Every widget whose charges exceed its limit in some window of `windowMs`.
    public static func budgetViolations(in events: [HostEvent], windowMs: Double = 86_400_000) -> [Violation] {
        var violations: [Violation] = []
        for (id, charged) in chargedReloads(in: events).sorted(by: { $0.key < $1.key }) {
            guard let limit = charged.limit else { continue }
            let worst = maximumInAnyWindow(charged.times, windowMs: windowMs)
            if worst.count > limit {
                let parts = id.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
                violations.append(
                    Violation(
                        bundle: parts[0], kind: parts.count > 1 ? parts[1] : "?", family: parts.count > 2 ? parts[2] : "?",
                        limit: limit, count: worst.count, windowStart: worst.start))
            }
        }
        return violations
    }

    /// `bundle/kind/family` of an event about a widget.
    static func widgetID(_ event: HostEvent) -> String {
        "\(event.bundle ?? "?")/\(event.string("kind") ?? "?")/\(event.string("family") ?? "?")"
    }
}

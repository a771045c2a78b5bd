import Foundation

/// Why a widget did or did not reload: what blocks its next reload now, its budget over the last
/// 24 hours, and the history of decisions about it. Derived from the event log alone, so a live
/// host (`ExtensionHost.explain(_:)`) and a log read back (`sandglass explain --log`) give the
/// same answer.
///
/// ```swift
/// for explanation in await host.explain("Leaderboard") {
///     print(explanation)            // readable; or look at .status, .chargedInWindow, .history
/// }
/// ```
public struct WidgetExplanation: Sendable, CustomStringConvertible {
    /// What the widget is waiting for now.
    public enum Status: Sendable, Hashable {
        /// Installed, its first timeline not yet asked for.
        case appearing
        /// A timeline request is in progress since run time `since` (ms).
        case reloading(since: Double)
        /// The next reload is due at run time `at` (ms): by its policy, or as a retry after a failure.
        case scheduled(at: Double, retry: Bool)
        /// Its policy is `.never`: only a WidgetCenter request (or an exempt reason) reloads it.
        case waitingForRequest
        /// Its budget is used up; the next reload is withheld until run time `until` (ms).
        case budgetExhausted(until: Double)
        /// Its extension keeps dying: no launch before run time `until` (ms), after `failures` in a row.
        case backoff(until: Double, failures: Int)
        /// Its extension failed permanently at run time `since` (ms).
        case failedPermanently(since: Double)
    }

    /// One decision or outcome about the widget.
    public struct Decision: Sendable, Hashable {
        /// Run time, ms.
        public let t: Double
        /// The event's name (`reload.requested`, `reload.denied`, `timeline`, `backoff.scheduled`, …).
        public let event: String
        /// The event in words.
        public let text: String
    }

    /// `bundle/kind/family`.
    public let widget: String
    public let bundle: String
    public let kind: String
    public let family: String
    /// The run time (ms) the explanation is for.
    public let now: Double
    /// The run clock's start (seconds since 1970), when the events had `run.start`.
    public let epoch: Double?
    public let status: Status
    /// The budget's limit, as the last decision recorded it.
    public let limit: Int?
    /// Reloads charged, exempt and denied (budget) in the 24 hours before `now`.
    public let chargedInWindow: Int
    public let exemptInWindow: Int
    public let deniedInWindow: Int
    /// Every decision and outcome about the widget, oldest first.
    public let history: [Decision]

    /// Explanations of the widgets matching `name` — `bundle/kind/family`, a kind, or a bundle
    /// identifier — at run time `now` (ms; default: the last event's).
    public static func explain(_ name: String, in events: [HostEvent], now: Double? = nil) -> [WidgetExplanation] {
        var ids: [String] = []
        for event in events where event.kind == .widgetAdded {
            let id = ReloadAudit.widgetID(event)
            if (id == name || event.string("kind") == name || event.bundle == name) && !ids.contains(id) { ids.append(id) }
        }
        let epoch = events.first { $0.kind == .runStart }?.double("epoch")
        let at = now ?? events.last?.t ?? 0
        return ids.map { derive($0, from: events, now: at, epoch: epoch) }
    }

    /// Every widget the events know (`widget.added`), as `bundle/kind/family`.
    public static func widgets(in events: [HostEvent]) -> [String] {
        var ids: [String] = []
        for event in events where event.kind == .widgetAdded {
            let id = ReloadAudit.widgetID(event)
            if !ids.contains(id) { ids.append(id) }
        }
        return ids
    }

    private static let widgetEvents: Set<String> = [
        "widget.added", "reload.requested", "reload.denied", "reload.coalesced", "reload.failed", "timeline"
    ]
    private static let extensionEvents: Set<String> = ["backoff.scheduled", "backoff.cleared", "extension.failedPermanently"]

    private static func derive(_ id: String, from events: [HostEvent], now: Double, epoch: Double?) -> WidgetExplanation {
        let parts = id.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let bundle = parts[0], kind = parts.count > 1 ? parts[1] : "", family = parts.count > 2 ? parts[2] : ""
        var status = Status.appearing
        var backoff: (until: Double, failures: Int)?
        var limit: Int?
        var charged = 0, exempt = 0, denied = 0
        var history: [Decision] = []
        let windowStart = now - 86_400_000
        for event in events where event.t <= now {
            let mine: Bool
            if widgetEvents.contains(event.name) {
                mine = event.bundle == bundle && event.string("kind") == kind && event.string("family") == family
            } else {
                mine = extensionEvents.contains(event.name) && event.bundle == bundle
            }
            guard mine else { continue }
            history.append(Decision(t: event.t, event: event.name, text: TraceRenderer.render(event) ?? event.name))
            let inWindow = event.t > windowStart
            switch event.kind {
            case .reloadRequested:
                status = .reloading(since: event.t)
                if let l = event.int("limit") { limit = Int(l) }
                if inWindow { if event["charged"] == .bool(true) { charged += 1 } else { exempt += 1 } }
            case .timeline:
                if let next = event.double("nextReload") {
                    status = .scheduled(at: next, retry: false)
                } else {
                    status = .waitingForRequest
                }
            case .reloadFailed:
                if let retry = event.double("retryAt") { status = .scheduled(at: retry, retry: true) }
            case .reloadDenied:
                switch event.string("reason") {
                case "budgetExhausted":
                    if let until = event.double("until") { status = .budgetExhausted(until: until) }
                    if let l = event.int("limit") { limit = Int(l) }
                    if inWindow { denied += 1 }
                case "extensionFailed":
                    if case .failedPermanently = status {} else { status = .failedPermanently(since: event.t) }
                default: break
                }
            case .backoffScheduled:
                if let until = event.double("until") { backoff = (until, Int(event.int("failures") ?? 0)) }
            case .backoffCleared:
                backoff = nil
                if case .failedPermanently = status { status = .scheduled(at: event.t, retry: true) }
            case .extensionFailedPermanently:
                backoff = nil
                status = .failedPermanently(since: event.t)
            default: break
            }
        }
        // A retry that waits for the extension's backoff is blocked by the backoff.
        if let backoff, backoff.until > now {
            switch status {
            case .scheduled(_, true), .reloading, .appearing: status = .backoff(until: backoff.until, failures: backoff.failures)
            default: break
            }
        }
        return WidgetExplanation(
            widget: id, bundle: bundle, kind: kind, family: family, now: now, epoch: epoch, status: status,
            limit: limit, chargedInWindow: charged, exemptInWindow: exempt, deniedInWindow: denied, history: history)
    }

    // MARK: words

    /// The status in a sentence.
    public var statusText: String {
        switch status {
        case .appearing:
            return "appearing: its first timeline has not been asked for yet"
        case .reloading(let since):
            return "reloading: a timeline request is in progress since \(when(since))"
        case .scheduled(let at, let retry):
            let what = retry ? "retries its failed reload" : "reloads by its timeline's policy"
            return at <= now ? "\(what); it was due at \(when(at))" : "\(what) at \(when(at))"
        case .waitingForRequest:
            return "waits for a WidgetCenter request: its policy is .never"
        case .budgetExhausted(let until):
            let used = limit.map { " (\($0) of \($0) reloads used in the last 24 h)" } ?? ""
            return until <= now
                ? "blocked by its reload budget\(used) until \(when(until)), which has passed"
                : "blocked: reload budget exhausted\(used) until \(when(until))"
        case .backoff(let until, let failures):
            return
                "blocked: its extension is in backoff after \(failures) failure\(failures == 1 ? "" : "s") in a row, until \(when(until))"
        case .failedPermanently(let since):
            return "blocked: its extension failed permanently at \(when(since)) and is not launched again (clear its failures to retry)"
        }
    }

    /// Run time (ms) as `1d 02:03:04 (2026-11-22T…Z)`.
    func when(_ ms: Double) -> String {
        let stamp = TraceRenderer.stamp(ms).trimmingCharacters(in: .whitespaces)
        guard let epoch else { return stamp }
        return "\(stamp) (\(iso8601(epoch + ms / 1000)))"
    }

    /// The explanation with the last `last` decisions, for a terminal (an extension's text in it
    /// written out printable: ``TraceRenderer/printable(_:)``).
    public func rendered(last: Int = 20) -> String {
        var lines = [TraceRenderer.printable("\(kind) · \(bundle) · \(family)")]
        lines.append("  now:     \(when(now))")
        lines.append("  status:  \(TraceRenderer.printable(statusText))")
        let budget = limit.map { "\($0) per 24 h" } ?? "limit not recorded yet"
        lines.append(
            "  budget:  \(budget) · in the last 24 h: \(chargedInWindow) charged, \(exemptInWindow) exempt, \(deniedInWindow) denied")
        let shown = history.suffix(max(0, last))
        lines.append("  decisions (\(shown.count == history.count ? "all \(history.count)" : "last \(shown.count) of \(history.count)")):")
        for decision in shown {
            lines.append("    " + TraceRenderer.stamp(decision.t) + "  " + decision.text)
        }
        return lines.joined(separator: "\n")
    }

    public var description: String { rendered() }
}

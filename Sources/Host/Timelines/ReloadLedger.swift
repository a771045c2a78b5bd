/// One line of the reload ledger: a decision about a widget's reload, read from the event log
/// (`reload.requested`, `reload.denied`, `reload.coalesced`).
///
/// ```swift
/// let ledger = await host.ledger(widget: "Leaderboard")
/// #expect(ledger.filter { $0.decision == .charged }.count <= 60)
/// ```
public struct ReloadLedgerEntry: Sendable, Hashable, CustomStringConvertible {
    /// What was decided.
    public enum Decision: String, Sendable, Hashable {
        /// The reload went ahead and counted against the budget.
        case charged
        /// The reload went ahead for free (see ``exemption``).
        case exempt
        /// The reload was refused or withheld (see ``denial``).
        case denied
        /// The request was merged into a reload already due.
        case coalesced
    }

    /// Run time, ms.
    public let t: Double
    /// `bundle/kind/family`.
    public let widget: String
    public let decision: Decision
    /// The request's reason (a ``ReloadReason`` raw value).
    public let reason: String
    /// Who asked: `extension`, `app`, `system` or `host`.
    public let origin: String?
    /// Why a reload was free.
    public let exemption: BudgetExemption?
    /// Why a reload was refused: `budgetExhausted`, `extensionFailed`, `noSuchWidget`.
    public let denial: String?
    /// Budget left after the decision.
    public let remaining: Int?
    /// For a budget denial: the run time (ms) the reload is withheld until.
    public let until: Double?

    /// The ledger in `events`, of the widgets matching `widget` (`bundle/kind/family`, a kind or a
    /// bundle identifier; `nil`: all).
    public static func entries(in events: [HostEvent], widget: String? = nil) -> [ReloadLedgerEntry] {
        var result: [ReloadLedgerEntry] = []
        for event in events {
            let decision: Decision
            var reason = event.string("reason") ?? "?"
            var denial: String?
            switch event.kind {
            case .reloadRequested:
                decision = event["charged"] == .bool(true) ? .charged : .exempt
            case .reloadDenied:
                decision = .denied
                denial = reason
                reason = event.string("requested") ?? "?"
            case .reloadCoalesced:
                decision = .coalesced
            default:
                continue
            }
            let id = ReloadAudit.widgetID(event)
            if let widget, widget != id, widget != event.string("kind"), widget != event.bundle { continue }
            result.append(
                ReloadLedgerEntry(
                    t: event.t, widget: id, decision: decision, reason: reason, origin: event.string("origin"),
                    exemption: event.string("exempt").flatMap(BudgetExemption.init(rawValue:)), denial: denial,
                    remaining: event.int("remaining").map(Int.init), until: event.double("until")))
        }
        return result
    }

    public var description: String {
        var text = "\(TraceRenderer.stamp(t).trimmingCharacters(in: .whitespaces)) \(widget) \(decision.rawValue) \(reason)"
        if let exemption { text += " (\(exemption.rawValue))" }
        if let denial { text += " (\(denial))" }
        if let remaining { text += " · \(remaining) left" }
        if let until { text += " · until \(TraceRenderer.stamp(until).trimmingCharacters(in: .whitespaces))" }
        return text
    }
}

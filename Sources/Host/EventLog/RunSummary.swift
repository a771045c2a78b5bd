/// Counts over a run's events: what the end of a run prints and `run.end` records.
public struct RunSummary: Sendable, CustomStringConvertible {
    public var spawns = 0
    public var activations = 0
    public var activationsByOutcome: [String: Int] = [:]
    public var killsByReason: [String: Int] = [:]
    public var timelines = 0
    public var sandboxDenials = 0
    public var protocolViolations = 0
    public var invariantViolations = 0
    /// Reloads charged against budgets, exempt from them, and denied (withheld) for want of budget.
    public var reloadsCharged = 0
    public var reloadsExempt = 0
    public var reloadsDenied = 0
    /// Relaunches put off after failures, and extensions that failed permanently.
    public var backoffs = 0
    public var permanentFailures = 0
    /// Today updates by `update.result`'s result (newData, noData, failed).
    public var updateResults: [String: Int] = [:]
    /// `location.delivered` events.
    public var locationsDelivered = 0
    /// `location.unavailable` events by `why`.
    public var locationsUnavailable: [String: Int] = [:]
    public var durationMs: Double = 0

    /// The summary of `events`.
    public init(events: [HostEvent]) {
        for event in events {
            switch event.kind {
            case .spawned: spawns += 1
            case .activationEnd:
                activations += 1
                activationsByOutcome[event.string("outcome") ?? "?", default: 0] += 1
            case .killed: killsByReason[event.string("reason") ?? "?", default: 0] += 1
            case .timeline: timelines += 1
            case .sandboxDenied: sandboxDenials += 1
            case .protocolViolation: protocolViolations += 1
            case .invariantViolated: invariantViolations += 1
            case .reloadRequested:
                if event["charged"] == .bool(true) { reloadsCharged += 1 } else { reloadsExempt += 1 }
            case .reloadDenied where event.string("reason") == "budgetExhausted": reloadsDenied += 1
            case .backoffScheduled: backoffs += 1
            case .extensionFailedPermanently: permanentFailures += 1
            case .updateResult: updateResults[event.string("result") ?? "?", default: 0] += 1
            case .locationDelivered: locationsDelivered += 1
            case .locationUnavailable: locationsUnavailable[event.string("why") ?? "?", default: 0] += 1
            default: break
            }
        }
        durationMs = events.last?.t ?? 0
    }

    var fields: [(String, JSONValue)] {
        var fields = baseFields
        if !updateResults.isEmpty {
            fields.append(("updates", .object(updateResults.sorted { $0.key < $1.key }.map { ($0.key, .int(Int64($0.value))) })))
        }
        if locationsDelivered > 0 || !locationsUnavailable.isEmpty {
            fields.append(
                (
                    "locations",
                    .object([
                        ("delivered", .int(Int64(locationsDelivered))),
                        ("unavailable", .object(locationsUnavailable.sorted { $0.key < $1.key }.map { ($0.key, .int(Int64($0.value))) }))
                    ])
                ))
        }
        return fields
    }

    private var baseFields: [(String, JSONValue)] {
        [
            ("spawns", .int(Int64(spawns))),
            ("activations", .object(activationsByOutcome.sorted { $0.key < $1.key }.map { ($0.key, .int(Int64($0.value))) })),
            ("kills", .object(killsByReason.sorted { $0.key < $1.key }.map { ($0.key, .int(Int64($0.value))) })),
            ("timelines", .int(Int64(timelines))),
            ("sandboxDenials", .int(Int64(sandboxDenials))),
            ("protocolViolations", .int(Int64(protocolViolations))),
            ("invariantViolations", .int(Int64(invariantViolations))),
            (
                "reloads",
                .object([
                    ("charged", .int(Int64(reloadsCharged))), ("exempt", .int(Int64(reloadsExempt))),
                    ("denied", .int(Int64(reloadsDenied)))
                ])
            ),
            ("backoffs", .int(Int64(backoffs))), ("permanentFailures", .int(Int64(permanentFailures)))
        ]
    }

    public var description: String {
        let outcomes = activationsByOutcome.sorted { $0.key > $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        let kills =
            killsByReason.isEmpty
            ? "none" : killsByReason.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        var text = """
            summary: \(spawns) processes spawned · \(activations) activations (\(outcomes.isEmpty ? "none" : outcomes)) · \(timelines) timelines recorded
                     kills: \(kills) · sandbox denials: \(sandboxDenials) · protocol violations: \(protocolViolations) · invariant violations: \(invariantViolations)
                     reloads: \(reloadsCharged) charged, \(reloadsExempt) exempt, \(reloadsDenied) withheld for budget · relaunch backoffs: \(backoffs) · failed permanently: \(permanentFailures)
            """
        if !updateResults.isEmpty {
            text +=
                "\n         Today updates: "
                + updateResults.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        }
        if locationsDelivered > 0 || !locationsUnavailable.isEmpty {
            let unavailable = locationsUnavailable.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            text += "\n         locations: \(locationsDelivered) delivered · unavailable: \(unavailable.isEmpty ? "none" : unavailable)"
        }
        return text
    }
}

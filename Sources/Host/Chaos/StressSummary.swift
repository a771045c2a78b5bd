/// What a chaos run did and what it proved, counted from its (merged) event log: printed at
/// the end of `sandglass stress` and recorded as `stress.end`.
public struct StressSummary: Sendable, CustomStringConvertible {
    /// Hosts started (one per `run.start`) and hosts SIGKILLed (by themselves at a step, or by
    /// their supervisor).
    public var hosts = 0
    public var hostKills = 0
    public var hostKillsBySteps: [String: Int] = [:]
    public var iterations = 0
    public var spawns = 0
    /// Launches of an extension after its first in the same host (after a kill, an idle exit,
    /// or by session identifier for its events).
    public var relaunches = 0
    public var activations = 0
    public var activationsByOutcome: [String: Int] = [:]
    public var killsByReason: [String: Int] = [:]
    /// Chaos kills armed at protocol steps that fired, by step.
    public var killsByStep: [String: Int] = [:]
    public var suspensions = 0
    public var memoryLimitChanges = 0
    public var downloadsFinished = 0
    public var downloadsFailed = 0
    public var downloadRetries = 0
    public var tasksRecovered = 0
    public var eventsDelivered = 0
    public var eventsRedelivered = 0
    public var eventsAcknowledged = 0
    public var sandboxDenials = 0
    public var protocolViolations = 0
    /// The invariant checker's verdicts.
    public var verdicts: [InvariantVerdict] = []

    /// Kills of every reason.
    public var kills: Int { killsByReason.values.reduce(0, +) + hostKills }
    /// Whether every invariant held.
    public var held: Bool { verdicts.allSatisfy(\.held) }
    public var violations: Int { verdicts.map(\.violations.count).reduce(0, +) }

    /// The violations of `invariant` (0 when it was not checked).
    public func violations(of invariant: Invariant) -> Int {
        verdicts.first { $0.invariant == invariant }?.violations.count ?? 0
    }

    public init(events: [HostEvent], report: InvariantReport) {
        var launched: Set<String> = []
        for event in events {
            switch event.kind {
            case .runStart:
                hosts += 1
                launched.removeAll()
            case .spawned:
                spawns += 1
                if let bundle = event.bundle, !launched.insert(bundle).inserted { relaunches += 1 }
            case .activationEnd:
                activations += 1
                activationsByOutcome[event.string("outcome") ?? "?", default: 0] += 1
            case .killed:
                killsByReason[event.string("reason") ?? "?", default: 0] += 1
                if let detail = event.string("detail"), detail.hasPrefix("chaos at step ") {
                    killsByStep[String(detail.dropFirst("chaos at step ".count)), default: 0] += 1
                }
            case .hostKilled:
                hostKillsBySteps[event.string("step") ?? "?", default: 0] += 1
            case .hostEnded where event["killed"] == .bool(true):
                hostKills += 1
            case .stressIteration: iterations += 1
            case .suspended: suspensions += 1
            case .memoryLimit: memoryLimitChanges += 1
            case .downloadFinished: downloadsFinished += 1
            case .downloadFailed: downloadsFailed += 1
            case .downloadRetry: downloadRetries += 1
            case .taskRecovered: tasksRecovered += 1
            case .eventDelivered:
                eventsDelivered += 1
                if (event.int("attempt") ?? 1) > 1 { eventsRedelivered += 1 }
            case .eventsFinished: eventsAcknowledged += InvariantChecker.ids(event).count
            case .sandboxDenied: sandboxDenials += 1
            case .protocolViolation: protocolViolations += 1
            default: break
            }
        }
        verdicts = report.verdicts
    }

    public var description: String {
        func list(_ counts: [String: Int]) -> String {
            counts.isEmpty ? "none" : counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        }
        let outcomes = activationsByOutcome.sorted { $0.key > $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        var lines = [
            "stress summary: \(iterations) chaos iterations over \(hosts) host\(hosts == 1 ? "" : "s") (\(hostKills) host kill\(hostKills == 1 ? "" : "s"), \(max(0, hosts - 1)) restart\(hosts == 2 ? "" : "s") from the journal)",
            "  kills:        \(kills) — extensions: \(list(killsByReason)); host: \(hostKills)",
            "  at steps:     \(list(killsByStep))" + (hostKillsBySteps.isEmpty ? "" : "; host at \(list(hostKillsBySteps))"),
            "  processes:    \(spawns) spawned, \(relaunches) relaunches · \(suspensions) suspensions · \(memoryLimitChanges) memory-limit changes",
            "  activations:  \(activations) (\(outcomes.isEmpty ? "none" : outcomes))",
            "  downloads:    \(downloadsFinished) finished, \(downloadsFailed) failed, \(downloadRetries) retries, \(tasksRecovered) recovered after a host restart",
            "  events:       \(eventsDelivered) delivered, \(eventsAcknowledged) acknowledged, \(eventsRedelivered) redelivered",
            "  sandbox:      \(sandboxDenials) denials · \(protocolViolations) protocol violations",
            "  guarantees:   \(violations(of: .downloadsAcknowledged)) acknowledged events lost · \(violations(of: .noDeliveryAfterAcknowledgement)) deliveries after acknowledgement · \(violations(of: .noZombies)) zombies · \(violations(of: .descriptorsReturn)) leaked descriptors · \(violations(of: .noOrphans)) orphans",
            "  invariants:   \(held ? "all held" : "\(violations) violation\(violations == 1 ? "" : "s")")"
        ]
        lines += verdicts.map { "    " + $0.description }
        return lines.joined(separator: "\n")
    }

    /// The `stress.end` event's fields.
    public var fields: [(String, JSONValue)] {
        func object(_ counts: [String: Int]) -> JSONValue {
            .object(counts.sorted { $0.key < $1.key }.map { ($0.key, .int(Int64($0.value))) })
        }
        return [
            ("iterations", .int(Int64(iterations))), ("hosts", .int(Int64(hosts))), ("hostKills", .int(Int64(hostKills))),
            ("hostKillsAtSteps", object(hostKillsBySteps)),
            ("kills", .int(Int64(kills))), ("killsByReason", object(killsByReason)), ("killsByStep", object(killsByStep)),
            ("spawns", .int(Int64(spawns))), ("relaunches", .int(Int64(relaunches))),
            ("activations", object(activationsByOutcome)), ("suspensions", .int(Int64(suspensions))),
            (
                "downloads",
                .object([
                    ("finished", .int(Int64(downloadsFinished))), ("failed", .int(Int64(downloadsFailed))),
                    ("retries", .int(Int64(downloadRetries))), ("recovered", .int(Int64(tasksRecovered)))
                ])
            ),
            (
                "events",
                .object([
                    ("delivered", .int(Int64(eventsDelivered))), ("acknowledged", .int(Int64(eventsAcknowledged))),
                    ("redelivered", .int(Int64(eventsRedelivered)))
                ])
            ),
            (
                "verdicts",
                .object(
                    verdicts.map {
                        (
                            $0.invariant.rawValue,
                            .object([("checked", .int(Int64($0.checked))), ("violations", .int(Int64($0.violations.count)))])
                        )
                    })
            )
        ]
    }
}

/// A property every run must have, checked over its event log by ``InvariantChecker``. The raw
/// values are the `invariant` field of `invariant.violated` lines.
public enum Invariant: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Every download that completed (at the server, and so in the host) has its session events
    /// delivered to the extension and acknowledged by its completion handler; every delivered
    /// event is acknowledged in the end.
    case downloadsAcknowledged
    /// No event is delivered again after its acknowledgement (the journal dropped it).
    case noDeliveryAfterAcknowledgement
    /// Every activation ends with exactly one outcome (ok, failed or killed); a host that dies
    /// leaves its activations in flight without one, never with two.
    case oneOutcomePerActivation
    /// No extension process outlives its host: at a shutdown every process was reaped, at a
    /// host's death every process died with it.
    case noOrphans
    /// No zombie is left: every child of the host (and of the stress conductor) was reaped.
    case noZombies
    /// The host's open file descriptors return to their count before the host was made.
    case descriptorsReturn
    /// No widget is charged more reloads than its budget in any 24 hours.
    case reloadBudget
    /// A completion is called at most once: each background-events conversation is finished at
    /// most once, and each event is acknowledged at most once.
    case completionAtMostOnce
    /// The host keeps making progress: no chaos step waited past its real-time deadline.
    case progress

    /// One sentence for people.
    public var description: String {
        switch self {
        case .downloadsAcknowledged: "every completed download is delivered and acknowledged"
        case .noDeliveryAfterAcknowledgement: "nothing is delivered after its acknowledgement"
        case .oneOutcomePerActivation: "every activation ends with exactly one outcome"
        case .noOrphans: "no extension process outlives its host"
        case .noZombies: "no zombies"
        case .descriptorsReturn: "the host's descriptors return to their baseline"
        case .reloadBudget: "no widget exceeds its reload budget"
        case .completionAtMostOnce: "completions are called at most once"
        case .progress: "the host keeps making progress"
        }
    }
}

/// One breach of an ``Invariant``, with what shows it.
public struct InvariantViolation: Sendable, Hashable, CustomStringConvertible {
    /// The invariant broken.
    public let invariant: Invariant
    /// What happened, in words, naming tasks, events, pids.
    public let detail: String
    /// The extension concerned, when one is.
    public let bundle: String?
    /// Which host of the log (0 for the first `run.start`, 1 after the first restart …).
    public let host: Int

    public init(_ invariant: Invariant, _ detail: String, bundle: String? = nil, host: Int = 0) {
        self.invariant = invariant
        self.detail = detail
        self.bundle = bundle
        self.host = host
    }

    public var description: String { "\(invariant.rawValue): \(detail)" }

    /// The `invariant.violated` line's fields.
    public var fields: [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("invariant", .string(invariant.rawValue))]
        if let bundle { fields.append(("bundle", .string(bundle))) }
        fields += [("host", .int(Int64(host))), ("detail", .string(detail))]
        return fields
    }
}

/// The verdict on one invariant: how many things were checked, and what broke it.
public struct InvariantVerdict: Sendable, CustomStringConvertible {
    public let invariant: Invariant
    /// Things examined (downloads, events, activations, processes, hosts, widgets …).
    public var checked: Int
    public var violations: [InvariantViolation]

    /// Whether the invariant held.
    public var held: Bool { violations.isEmpty }

    public var description: String {
        held ? "✓ \(invariant.rawValue): \(checked) checked, held"
             : "✗ \(invariant.rawValue): \(violations.count) violation\(violations.count == 1 ? "" : "s") (\(checked) checked) — \(violations[0].detail)"
    }
}

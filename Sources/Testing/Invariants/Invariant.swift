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

import SandglassIPC

/// What the host asks an extension to do. The raw values are the event log's `kind`.
public enum ActivationKind: String, Sendable, Hashable, CaseIterable {
    case placeholder
    case snapshot
    case timeline
    case performUpdate
    case backgroundEvents

    /// This activation's budget in `budgets`.
    func budget(in budgets: Budgets) -> Duration {
        switch self {
        case .placeholder: budgets.placeholder
        case .snapshot: budgets.snapshot
        case .timeline: budgets.timeline
        case .performUpdate: budgets.performUpdate
        case .backgroundEvents: budgets.backgroundEvents
        }
    }
}

/// How an activation ended.
public enum ActivationOutcome: Sendable, Hashable {
    /// The entry answering a placeholder or snapshot request.
    case entry(EntryPayload)
    /// The timeline answering a timeline request.
    case timeline(TimelinePayload)
    /// The result of a Today extension's performUpdate.
    case updateResult(UpdateResultCode)
    /// Background events: delivered and acknowledged (the stored completion handler was called).
    case eventsFinished(count: Int)
    /// Background events: no configuration's matching block took the identifier; they stay queued.
    case declined
    /// The extension answered with an error, could not be launched, or exited during the activation.
    case failed(String)
    /// The extension was killed during the activation.
    case killed(KillReason)

    /// The event log's `outcome`: ok, failed or killed.
    public var label: String {
        switch self {
        case .entry, .timeline, .updateResult, .eventsFinished: "ok"
        case .declined: "declined"
        case .failed: "failed"
        case .killed: "killed"
        }
    }
}

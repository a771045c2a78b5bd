/// How the host contained an extension's misbehaviour, read from the event log — the typed
/// verdict of the misbehaviour corpus (`Examples/MisbehavingWidget`).
///
/// ```swift
/// let verdict = ContainmentVerdict.of("com.example.misbehaving.busyloop", in: await host.events())
/// #expect(verdict == .killed(.timeBudget))
/// ```
public enum ContainmentVerdict: Sendable, Hashable, CustomStringConvertible {
    /// The host killed it for the reason given (its first kill that was not idle, chaos or a
    /// shutdown): `timeBudget`, `memory`, `cpu`, `protocolViolation`.
    case killed(KillReason)
    /// The sandbox refused these system calls (seccomp, recorded as `sandbox.denied`); the
    /// extension went on and answered.
    case denied(Set<String>)
    /// Nothing was killed or denied: it answered (what it tried failed quietly inside the
    /// sandbox — a Landlock EACCES — or the SDK absorbed it, as a second completion).
    case answered
    /// Neither killed nor answered (yet).
    case undecided

    /// The verdict on extension `bundle` in `events`.
    public static func of(_ bundle: String, in events: [HostEvent]) -> ContainmentVerdict {
        let own = events.filter { $0.bundle == bundle }
        if let kill = own.first(where: { $0.kind == .killed && !["idle", "chaos", "hostShutdown"].contains($0.string("reason") ?? "") }),
            let reason = kill.string("reason").flatMap(KillReason.init(rawValue:))
        {
            return .killed(reason)
        }
        let denied = Set(own.filter { $0.kind == .sandboxDenied }.compactMap { $0.string("syscall") })
        if !denied.isEmpty { return .denied(denied) }
        if own.contains(where: {
            $0.kind == .timeline || ($0.kind == .activationEnd && $0.string("outcome") == "ok" && $0.string("kind") == "timeline")
        }) {
            return .answered
        }
        return .undecided
    }

    public var description: String {
        switch self {
        case .killed(let reason): "killed (\(reason.rawValue))"
        case .denied(let calls): "denied \(calls.sorted().joined(separator: ", ")), went on"
        case .answered: "answered"
        case .undecided: "undecided"
        }
    }
}

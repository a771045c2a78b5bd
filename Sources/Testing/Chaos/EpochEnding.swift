import SandglassHost

/// How a host's stretch of a stress run (an epoch) ends.
public enum EpochEnding: Sendable, Hashable, CustomStringConvertible {
    /// A clean shutdown (the last epoch drains its downloads first).
    case shutdown
    /// The host SIGKILLs itself the next time it reaches `step`.
    case hostKilledAt(ProtocolStep)
    /// Its supervisor SIGKILLs the host `milliseconds` after its last chaos step, while its
    /// downloads and deliveries go on.
    case hostKilledAfter(milliseconds: Int)

    public var description: String {
        switch self {
        case .shutdown: "shutdown"
        case .hostKilledAt(let step): "host killed at \(step.rawValue)"
        case .hostKilledAfter(let ms): "host killed \(ms) ms after its last step"
        }
    }

    /// The worker's argument form: `shutdown`, `step:NAME`, `after:MS`.
    public var argument: String {
        switch self {
        case .shutdown: "shutdown"
        case .hostKilledAt(let step): "step:\(step.rawValue)"
        case .hostKilledAfter(let ms): "after:\(ms)"
        }
    }

    public init?(argument: String) {
        if argument == "shutdown" { self = .shutdown; return }
        let parts = argument.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        if parts[0] == "step", let step = ProtocolStep(rawValue: parts[1]) { self = .hostKilledAt(step); return }
        if parts[0] == "after", let ms = Int(parts[1]) { self = .hostKilledAfter(milliseconds: ms); return }
        return nil
    }
}

import SandglassHost

/// One step of a chaos run, chosen by the seed alone (never by what happened before), so that
/// the same seed makes the same choices. `target` indexes the run's widget extensions in
/// bundle-identifier order (modulo their count).
public enum ChaosAction: Sendable, Hashable, CustomStringConvertible {
    /// Arm a SIGKILL at `step` and drive the conversation that reaches it (an activation, or
    /// time for a download and its delivery). Delivery steps name no target: any extension.
    case killAtStep(ProtocolStep, target: Int?)
    /// Start an activation and SIGKILL the extension `afterMicroseconds` later, wherever it is.
    case killDuring(ActivationKind, afterMicroseconds: Int, target: Int)
    /// SIGSTOP the extension, start a timeline, SIGCONT it `holdMilliseconds` later.
    case suspend(holdMilliseconds: Int, target: Int)
    /// Lower the extension's memory limit to `mebibytes`, run a timeline, restore the limit.
    case lowerMemory(mebibytes: Int, target: Int)
    /// Let the system run `seconds` of run-clock time: reloads, downloads, deliveries.
    case advance(seconds: Int)

    public var description: String {
        switch self {
        case .killAtStep(let step, let target): "kill at \(step.rawValue)" + (target.map { " of extension #\($0)" } ?? "")
        case .killDuring(let kind, let us, let target): "kill extension #\(target) \(us) µs into a \(kind.rawValue)"
        case .suspend(let ms, let target): "suspend extension #\(target) for \(ms) ms"
        case .lowerMemory(let mib, let target): "lower extension #\(target)'s memory limit to \(mib) MiB"
        case .advance(let seconds): "let \(seconds) s pass"
        }
    }
}

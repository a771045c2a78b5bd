import ArgumentParser
import SandglassHost

/// `--budget NAME=VALUE`: overrides one budget for every extension of the run.
///
/// Names: `launch`, `placeholder`, `snapshot`, `timeline`, `backgroundEvents`, `performUpdate`,
/// `idle` (durations: `500ms`, `2s`), `memory` (MiB), `reloadsPerDay` (count), `container`
/// (MiB the container may hold), `containerFiles` (count). Each is also the ceiling of what an
/// extension's own `SandglassLimits` may ask for.
struct BudgetOption: ExpressibleByArgument, Sendable {
    let apply: @Sendable (inout LimitOverrides) -> Void
    let text: String

    static let names = [
        "launch", "placeholder", "snapshot", "timeline", "backgroundEvents", "performUpdate", "idle", "memory", "reloadsPerDay",
        "container", "containerFiles"
    ]

    init?(argument: String) {
        let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        let (name, value) = (parts[0], parts[1])
        text = argument
        switch name {
        case "memory":
            guard let mib = Int(value), mib > 0 else { return nil }
            apply = { $0.memoryBytes = mib << 20 }
        case "container":
            guard let mib = Int(value), mib > 0, mib <= Int.max >> 20 else { return nil }
            apply = { $0.containerBytes = mib << 20 }
        case "containerFiles":
            guard let count = Int(value), count > 0 else { return nil }
            apply = { $0.containerInodes = count }
        case "reloadsPerDay":
            guard let count = Int(value), count > 0 else { return nil }
            apply = { $0.reloadsPerDay = count }
        default:
            guard let d = DurationArgument.parse(value), d > .zero else { return nil }
            switch name {
            case "launch": apply = { $0.launch = d }
            case "placeholder": apply = { $0.placeholder = d }
            case "snapshot": apply = { $0.snapshot = d }
            case "timeline": apply = { $0.timeline = d }
            case "backgroundEvents": apply = { $0.backgroundEvents = d }
            case "performUpdate": apply = { $0.performUpdate = d }
            case "idle": apply = { $0.idle = d }
            default: return nil
            }
        }
    }
}

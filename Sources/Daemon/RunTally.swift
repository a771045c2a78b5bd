import NIOConcurrencyHelpers
import SandglassHost

/// Running counts of a host's events for `ctl status`, kept as the events arrive (the daemon
/// does not go through the whole history to answer).
public final class RunTally: Sendable {
    struct Counts {
        var events = 0
        var lastT = 0.0
        var clock = "real"
        var activations: [String: Int] = [:]
        var kills: [String: Int] = [:]
        var spawnsByBundle: [String: Int] = [:]
        var killsByBundle: [String: Int] = [:]
        var timelines = 0
    }

    private let counts = NIOLockedValueBox(Counts())

    public init() {}

    /// Counts `event`.
    public func record(_ event: HostEvent) {
        counts.withLockedValue { c in
            c.events += 1
            c.lastT = max(c.lastT, event.t)
            switch event.kind {
            case .runStart: c.clock = event.string("clock") ?? "real"
            case .activationEnd: c.activations[event.string("outcome") ?? "?", default: 0] += 1
            case .killed:
                c.kills[event.string("reason") ?? "?", default: 0] += 1
                c.killsByBundle[event.bundle ?? "?", default: 0] += 1
            case .spawned: c.spawnsByBundle[event.bundle ?? "?", default: 0] += 1
            case .timeline: c.timelines += 1
            default: break
            }
        }
    }

    var snapshot: Counts { counts.withLockedValue { $0 } }
}

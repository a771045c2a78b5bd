import SandglassHost

/// The verdicts of an ``InvariantChecker`` run.
public struct InvariantReport: Sendable, CustomStringConvertible {
    /// One verdict per invariant, in `Invariant.allCases` order.
    public let verdicts: [InvariantVerdict]

    /// Every violation, invariant by invariant.
    public var violations: [InvariantViolation] { verdicts.flatMap(\.violations) }
    /// Whether every invariant held.
    public var held: Bool { verdicts.allSatisfy(\.held) }

    /// The verdict on `invariant`.
    public subscript(invariant: Invariant) -> InvariantVerdict {
        verdicts.first { $0.invariant == invariant }!
    }

    /// The `invariant.violated` events for the log.
    public func violationEvents(at t: Double) -> [HostEvent] {
        violations.map { HostEvent(t: t, name: .invariantViolated, fields: $0.fields) }
    }

    public var description: String { verdicts.map(\.description).joined(separator: "\n") }
}

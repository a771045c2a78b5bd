/// The verdict on one invariant: how many things were checked, and what broke it.
public struct InvariantVerdict: Sendable, CustomStringConvertible {
    public let invariant: Invariant
    /// Things examined (downloads, events, activations, processes, hosts, widgets …).
    public var checked: Int
    public var violations: [InvariantViolation]

    /// Whether the invariant held.
    public var held: Bool { violations.isEmpty }

    public var description: String {
        held
            ? "✓ \(invariant.rawValue): \(checked) checked, held"
            : "✗ \(invariant.rawValue): \(violations.count) violation\(violations.count == 1 ? "" : "s") (\(checked) checked) — \(violations[0].detail)"
    }
}

import SandglassHost

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

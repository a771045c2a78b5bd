/// What a chaos kill armed at a ``ProtocolStep`` kills.
public enum ChaosTarget: String, Sendable, Hashable {
    /// The extension whose conversation reached the step (SIGKILL, reason `chaos`).
    case `extension`
    /// The host process itself (SIGKILL to its own pid): a real host death, for a supervisor
    /// that restarts it on the same data directory.
    case host
}

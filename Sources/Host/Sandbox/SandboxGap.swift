/// Whether a layer's state in `run.start`'s `sandbox` says the run goes without that layer:
/// `off` (the policy turned it off), `unavailable…` (the host could not have it here), `none (…)`
/// (no cgroup could be made). The trace marks these, and the report makes each a warning.
public enum SandboxGap {
    /// Whether `state` is a layer the run goes without.
    public static func isGap(_ state: String) -> Bool {
        state == "off" || state.hasPrefix("unavailable") || state.hasPrefix("none")
    }
}

import ArgumentParser
import SandglassHost

/// Whether a host may start without a layer of the sandbox (`run`, `serve`, `stress`, `render`).
struct SandboxOptions: ParsableArguments {
    @Flag(
        name: .customLong("require-sandbox"),
        help: ArgumentHelp(
            """
            Refuse to start when the run would go without a layer of the sandbox (seccomp, Landlock, a cgroup, \
            the namespaces, rlimits) that this machine cannot give, rather than start and warn in run.start.
            """))
    var required = false

    /// The options as given, for a command that passes them on (a stress run's workers).
    var arguments: [String] { required ? ["--require-sandbox"] : [] }

    func apply(to configuration: inout HostConfiguration) {
        configuration.requiresEverySandboxLayer = required
    }
}

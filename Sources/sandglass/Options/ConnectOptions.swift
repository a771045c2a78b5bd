import ArgumentParser
import SandglassHost

/// Where the host connects for an extension's requests (`run`, `serve`, `stress`): ranges
/// denied on top of the standard policy's, and exceptions to them.
struct ConnectOptions: ParsableArguments {
    @Option(
        name: .customLong("deny-connect"),
        help: ArgumentHelp(
            """
            Never connect for an extension to this range (repeatable): ADDRESS/BITS, an address, or loopback, private, \
            link-local, metadata, multicast, unspecified. Added to what is always denied: link-local, metadata, \
            unspecified and multicast.
            """, valueName: "range"))
    var denied: [String] = []

    @Option(
        name: .customLong("allow-connect"),
        help: ArgumentHelp(
            "Connect to this range even though a denied range holds it (repeatable), e.g. --allow-connect 169.254.10.0/24.",
            valueName: "range"))
    var allowed: [String] = []

    /// The options as given, for a command that passes them on (a stress run's workers, its replay).
    var arguments: [String] {
        denied.flatMap { ["--deny-connect", $0] } + allowed.flatMap { ["--allow-connect", $0] }
    }

    /// Adds the ranges given to `configuration`'s connect policy.
    func apply(to configuration: inout HostConfiguration) throws {
        configuration.connectPolicy = try policy(over: configuration.connectPolicy)
    }

    /// `base` with the ranges given added; bad input naming the option and the range that is not one.
    func policy(over base: ConnectPolicy) throws -> ConnectPolicy {
        var policy = base
        for text in denied { policy.denied += try ranges(text, option: "--deny-connect") }
        for text in allowed { policy.allowed += try ranges(text, option: "--allow-connect") }
        return policy
    }

    private func ranges(_ text: String, option: String) throws -> [AddressRange] {
        do {
            return try ConnectPolicy.ranges(text)
        } catch {
            throw BadInput("\(option) \(error)")
        }
    }
}

import ArgumentParser
import Foundation
import SandglassHost

/// `sandglass bench`: the figures a user compares, each beside a baseline from the same run.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure spawn-to-hello and IPC round trips against baselines measured in the same run."
    )

    @Flag(help: "The short set: sandboxed spawn vs unsandboxed, IPC vs raw socketpair.")
    var quick = false

    @Option(help: "Where the built example bundles are (default: .build/examples).")
    var examples: String?

    @Option(help: "Write the figures as JSON here.")
    var json: String?

    func run() async throws {
        throw ExitCode(2)
    }
}

import ArgumentParser
import Foundation

/// `sandglass`: the system side of widget extensions, on Linux.
@main
struct Sandglass: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandglass",
        abstract: "Run widget extensions the way iOS does: sandboxed processes, time budgets, kills, relaunches.",
        discussion: """
            Each extension runs as its own sandboxed process (seccomp, Landlock, cgroups, rlimits); every \
            activation has a wall-clock budget and the extension is SIGKILLed when it runs over.

            Examples:
              sandglass demo
              sandglass run Leaderboard.app --duration 30s --log run.jsonl
              sandglass run Leaderboard.app --duration 3d --clock virtual --log run.jsonl --quiet
              sandglass explain --log run.jsonl --widget Leaderboard
              sandglass bundle --executable .build/release/MyWidget --info Info.plist -o MyApp.app
              sandglass bench --quick
            """,
        subcommands: [
            RunCommand.self, StressCommand.self, CheckCommand.self, StressWorkerCommand.self, ExplainCommand.self, DemoCommand.self,
            BundleCommand.self, RenderCommand.self,
            BenchCommand.self, ReportCommand.self, ServeCommand.self, CtlCommand.self, BenchEchoCommand.self
        ]
    )

    /// Bad input exits with status 2, with the parser's message (0: the run met its invariants, 1: it did not).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var async = command as? AsyncParsableCommand {
                try await async.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}

/// Bad input: printed as is, exit status 2.
struct BadInput: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs `body`, turning bad input into a message and exit status 2.
func reportingBadInput<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as BadInput {
        FileHandle.standardError.write(Data("sandglass: \(error.description)\n".utf8))
        throw ExitCode(2)
    }
}

/// Writes a line to standard output at once (the trace writes there unbuffered too).
func say(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

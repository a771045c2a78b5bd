import ArgumentParser
import Foundation
import SandglassHost
import SandglassReport
import SandglassTesting

/// `sandglass stress APP.app… --seed N`: seeded chaos with invariants.
struct StressCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stress",
        abstract:
            "Seeded chaos over app bundles: kills at every protocol step, suspensions, host deaths and restarts, network faults, memory pressure — then the invariants.",
        discussion: """
            Runs the apps' extensions in a host process on a virtual clock and, iteration after \
            iteration, injects the faults the seed chooses: SIGKILLs at random moments and at each \
            named protocol step (spawned, hello, requestWritten, replyRead, eventDelivered, \
            handlerRunning, completionSent, acknowledgementJournaled), SIGSTOP/SIGCONT, the memory \
            limit lowered, 503s, dropped connections and slow bodies from a fixture server (its URL \
            is SANDGLASS_FIXTURE_URL), and the host itself SIGKILLed — at a step or at a random \
            moment — then restarted on the same data directory, its journal. The last host drains \
            the run (downloads end, events are delivered and acknowledged) and shuts down. Then the \
            invariants are checked over the merged event log.

            The same --seed makes the same choices: the same faults in the same order, at the same \
            steps, delays and extensions, the same host deaths and network faults. Real timing is \
            not reproduced: where a process is when a random-moment kill lands may differ.

            Exit status: 0 when every invariant held, 1 when one did not (the command that \
            replays the run is printed), 2 for bad input.

            Examples:
              sandglass stress Downloader.app Leaderboard.app --seed 7 --iterations 300
              sandglass stress Downloader.app --seed 42 --duration 10m --log stress.jsonl
              sandglass stress Leaderboard.app --seed 1 --faults kill,steps --iterations 1000
              sandglass stress Downloader.app --seed 3 --iterations 5000 --shard 1/4

            With --shard INDEX/COUNT this process runs iteration k of the plan when k mod COUNT = \
            INDEX (each iteration's fault depends only on the seed and k), with hosts of its own \
            that drain its part: COUNT machines together inject every fault of the unsharded run.
            """
    )

    @Argument(help: "The app bundles (.app) to install.")
    var apps: [String]

    @Option(help: "The seed: the same seed makes the same choices.")
    var seed: UInt64

    @Option(help: "How many chaos iterations (default 200 unless --duration).")
    var iterations: Int?

    @Option(parsing: .unconditional, help: "Run for this long (real time) instead of a number of iterations: 30s, 10m, 2h.")
    var duration: DurationArgument?

    @Option(help: "The faults to inject: kill, steps, suspend, host, network, memory (comma-separated), or all.")
    var faults: String = "all"

    @Option(help: ShardOption.help)
    var shard: ShardOption?

    @Option(help: "Write the merged event log (every host's, one after the other, and the run's own events) to this file.")
    var log: String?

    @Option(help: "Also write a Chrome / Perfetto trace (JSON) of every host, one after the other.")
    var trace: String?

    @Option(
        help:
            "Keep the hosts' data (journal, containers, per-host logs) here; by default a temporary directory, removed when the run passes."
    )
    var dataDirectory: String?

    @Option(name: .customLong("env"), help: "An environment variable for every extension process: NAME=VALUE (repeatable).")
    var environment: [String] = []

    @OptionGroup(title: "Network")
    var connect: ConnectOptions

    @OptionGroup(title: "Sandbox")
    var sandbox: SandboxOptions

    @Flag(help: "No progress line.")
    var quiet = false

    func run() async throws {
        let exitCode = try await reportingBadInput { () async throws -> Int32 in
            guard !apps.isEmpty else { throw BadInput("name at least one .app bundle to stress") }
            if iterations != nil && duration != nil { throw BadInput("give --iterations or --duration, not both") }
            if let iterations, iterations < 0 { throw BadInput("--iterations must be 0 or more") }
            // Checked here, so that a bad range is the command's bad input and not a worker's failure.
            _ = try connect.policy(over: .standard)
            let faultSet: Set<ChaosFault>
            do { faultSet = try ChaosFault.parse(faults) } catch { throw BadInput("\(error)") }
            var absolute: [String] = []
            for app in apps {
                do { _ = try BundleLoader.load(app) } catch { throw BadInput("cannot install \(app): \(error)") }
                absolute.append(URL(fileURLWithPath: app).standardizedFileURL.path)
            }
            let directory =
                dataDirectory
                ?? FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-stress-\(UUID().uuidString.prefix(8))").path
            let settings = StressConductor.Settings(
                apps: absolute, plan: StressPlan(seed: seed, faults: faultSet),
                iterations: duration == nil ? (iterations ?? 200) : nil, duration: duration?.duration, shard: shard?.shard ?? .whole,
                dataDirectory: directory, logPath: log ?? directory + "/stress.jsonl", progress: !quiet, tracePath: trace,
                environment: environment, hostArguments: connect.arguments + sandbox.arguments)
            let conductor = try StressConductor(settings)
            let summary = try await conductor.run(command: replayCommand(iterations: nil))
            say("\(summary)")
            if summary.held {
                if dataDirectory == nil {
                    removeTemporaryDataDirectory(directory)
                }
                return 0
            }
            let ran = summary.iterations
            say("")
            say("invariants violated. The hosts' logs and data are kept in \(directory)" + (log.map { "; the merged log is \($0)" } ?? ""))
            say("replay: \(replayCommand(iterations: duration == nil ? nil : ran))")
            return 1
        }
        if exitCode != 0 { throw ExitCode(exitCode) }
    }

    /// The command that replays this run (a `--duration` run by the iterations it made).
    private func replayCommand(iterations ran: Int?) -> String {
        var words = ["sandglass", "stress"] + apps + ["--seed", String(seed)]
        if let ran {
            words += ["--iterations", String(ran)]
        } else if let duration {
            words += ["--duration", duration.text]
        } else {
            words += ["--iterations", String(iterations ?? 200)]
        }
        words += ["--faults", faults]
        if let shard { words += ["--shard", shard.description] }
        for pair in environment { words += ["--env", pair] }
        words += connect.arguments + sandbox.arguments
        return words.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
    }
}

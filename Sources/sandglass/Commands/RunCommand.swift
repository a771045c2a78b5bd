import ArgumentParser
import Foundation
import SandglassHost
import SandglassIPC

/// `sandglass run APP.app`: installs the app and lets the system run it.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Install an app and run its extensions as the system would, for a while.",
        discussion: """
        Installs each app, adds one widget of every kind of every widget extension (its first supported \
        family), and runs placeholder, snapshot and timeline requests, reloads by policy, idle termination \
        and budget kills until the duration has passed on the run's clock. The trace goes to standard \
        output; --log writes the event log as JSON lines.

        Examples:
          sandglass run Leaderboard.app --duration 20s
          sandglass run Leaderboard.app --duration 2h --clock virtual --log run.jsonl
          sandglass run Hanging.app --budget timeline=500ms --budget idle=1s
          sandglass run Fleet.app --duration 7d --clock virtual --budget reloadsPerDay=40 --log run.jsonl
          sandglass run Fleet.app --duration 1h --clock virtual --debug-reloads
        """
    )

    @Argument(help: "The app bundles (.app) to install.")
    var apps: [String]

    @Option(help: "How long to run, on the run's clock: 500ms, 30s, 10m, 2h, 7d.")
    var duration: DurationArgument = DurationArgument(argument: "10s")!

    @Option(help: "real, or virtual (days in seconds: time jumps to the next event when nothing runs).")
    var clock: ClockChoice = .real

    @Option(help: "Write the event log (JSON lines) to this file.")
    var log: String?

    @Option(name: .customLong("budget"), help: "Override a budget for every extension: NAME=VALUE (launch, placeholder, snapshot, timeline, backgroundEvents, performUpdate, idle; memory in MiB; reloadsPerDay).")
    var budgets: [BudgetOption] = []

    @Flag(help: "Lift the reload budget and the 5-minute minimum spacing, as Xcode's debugger does (every reload is still recorded, as exempt).")
    var debugReloads = false

    @Option(help: "How often the widgets are seen: always, often, seldom or never (sets the reload date the system chooses for single-entry .atEnd timelines).")
    var visibility: WidgetVisibility = .always

    @Option(name: .customLong("env"), help: "An environment variable for every extension process: NAME=VALUE (repeatable).")
    var environment: [String] = []

    @Option(help: "Keep containers, the bundle store and the journal here instead of a temporary directory (a later run with the same directory resumes unfinished downloads and redelivers unacknowledged events).")
    var dataDirectory: String?

    @Flag(help: "No trace on standard output; only the summary (on a terminal, a progress line meanwhile).")
    var quiet = false

    @Option(help: "Also write a Chrome / Perfetto trace (JSON) of the run here: a track per extension process, activations as slices.")
    var trace: String?

    @Option(help: "Also write the HTML report of the run here (as `sandglass report` makes it).")
    var report: String?

    @Flag(help: "Show progress instead of the trace: a rewritten line on a terminal, plain lines elsewhere.")
    var progress = false

    @Flag(help: "Print the summary as JSON on standard output, and no trace.")
    var json = false

    func run() async throws {
        let exitCode = try await reportingBadInput { () async throws -> Int32 in
            guard !apps.isEmpty else { throw BadInput("name at least one .app bundle to run") }
            var configuration = dataDirectory.map { HostConfiguration(dataDirectory: $0) } ?? .temporary()
            configuration.clock = clock.mode
            configuration.logPath = log
            configuration.trace = quiet || json || progress ? nil : .standardOutput
            configuration.debugReloads = debugReloads
            configuration.visibility = visibility
            for budget in budgets { budget.apply(&configuration.budgetOverrides) }
            for pair in environment {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty else { throw BadInput("--env \(pair): expected NAME=VALUE") }
                configuration.extensionEnvironment[parts[0]] = parts[1]
            }
            let host = try await ExtensionHost(configuration)
            for app in apps {
                do {
                    try await host.install(app)
                } catch let error as BundleError {
                    _ = await host.shutdown()
                    throw BadInput("cannot install \(app): \(error)")
                }
            }
            let outputs = try await RunOutputs.start(host, trace: trace, progress: progress ? .shown : (quiet || json ? .onTerminal : .off),
                                                     duration: duration.duration, virtualClock: clock == .virtual)
            await host.start()
            await host.run(for: duration.duration)
            let summary = await host.shutdown()
            try await outputs.finish(host, report: report, log: log)
            say(json ? summary.json : "\(summary)")
            if dataDirectory == nil { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }
            return summary.invariantViolations > 0 ? 1 : 0
        }
        if exitCode != 0 { throw ExitCode(exitCode) }
    }
}

extension WidgetVisibility: ExpressibleByArgument {}

/// `--clock real|virtual`.
enum ClockChoice: String, ExpressibleByArgument, CaseIterable {
    case real
    case virtual

    var mode: ClockMode { self == .real ? .real : .virtual }
}

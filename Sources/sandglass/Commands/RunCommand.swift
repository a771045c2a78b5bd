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
            family) and every Today extension, and runs placeholder, snapshot and timeline requests, reloads \
            by policy, Today updates (widgetPerformUpdate), location requests, idle termination and budget \
            kills until the duration has passed on the run's clock. The trace goes to standard output; --log \
            writes the event log as JSON lines.

            Location: a widget gets a location only when its extension sets NSWidgetWantsLocation, the app \
            is authorized always (or whenInUse and the user extended it to widgets), and the widgets were \
            visible within the in-use window (15 min). A significant location change (500 m) reloads the \
            location widgets, free of budget, when they are next visible. A Today widget updates when added, \
            each time the widgets become visible, every 15 min while visible and every 2 h in the background.

            A scenario file (JSON) sets the same state, changes it at given times of the run (the app's \
            authorization, the widgets' approval, visibility, position or route) and lists expectations; \
            an unmet expectation makes the exit status 1. The command line's options override its start.

            Examples:
              sandglass run Leaderboard.app --duration 20s
              sandglass run Leaderboard.app --duration 2h --clock virtual --log run.jsonl
              sandglass run Hanging.app --budget timeline=500ms --budget idle=1s
              sandglass run Fleet.app --duration 7d --clock virtual --budget reloadsPerDay=40 --log run.jsonl
              sandglass run Fleet.app --duration 1h --clock virtual --debug-reloads
              sandglass run TodayPatterns.app --duration 30s
              sandglass run Nearby.app --duration 3d --clock virtual --location-auth whenInUse --widget-location declined
              sandglass run Nearby.app --duration 2d --clock virtual --route commute.gpx --visibility seldom
              sandglass run Nearby.app --scenario Examples/Scenarios/app-authorization-changed.json
            """
    )

    @Argument(help: "The app bundles (.app) to install.")
    var apps: [String]

    @Option(parsing: .unconditional, help: "How long to run, on the run's clock: 500ms, 30s, 10m, 2h, 7d (default 10s, or the scenario's).")
    var duration: DurationArgument?

    @Option(help: "real, or virtual (days in seconds: time jumps to the next event when nothing runs) (default real, or the scenario's).")
    var clock: ClockChoice?

    @Option(help: "A scenario file (JSON): starting location state and visibility, timed changes, expectations.")
    var scenario: String?

    @OptionGroup(title: "Location and visibility")
    var location: LocationOptions

    @OptionGroup(title: "Network")
    var connect: ConnectOptions

    @OptionGroup(title: "Sandbox")
    var sandbox: SandboxOptions

    @Option(help: "Write the event log (JSON lines) to this file.")
    var log: String?

    @Option(
        name: .customLong("budget"),
        help:
            "Set a budget for every extension, also the most its own SandglassLimits may ask for: NAME=VALUE (launch, placeholder, snapshot, timeline, backgroundEvents, performUpdate, idle; memory and container in MiB; containerFiles; reloadsPerDay)."
    )
    var budgets: [BudgetOption] = []

    @Flag(
        help:
            "Lift the reload budget and the 5-minute minimum spacing, as Xcode's debugger does (every reload is still recorded, as exempt)."
    )
    var debugReloads = false

    @Option(name: .customLong("env"), help: "An environment variable for every extension process: NAME=VALUE (repeatable).")
    var environment: [String] = []

    @Option(
        name: .customLong("configuration"),
        help:
            "The configuration of configurable widgets (IntentConfiguration, AppIntentConfiguration): WIDGET=JSON or WIDGET=@FILE, the intent's parameters as a JSON object; WIDGET is a kind, bundle/kind or bundle/kind/family (repeatable)."
    )
    var configurations: [String] = []

    @Option(
        name: .customLong("app-group"),
        help:
            "Seed an app group's container from a directory: GROUP=DIR (repeatable), copied at install into every app that declares the group (files replaced, others kept; a symbolic link in DIR is refused)."
    )
    var appGroupSeeds: [String] = []

    @Flag(
        name: .customLong("log-private"),
        help:
            "Show the private values of Logger and os_log messages in the event log, as Xcode does (by default they are <private>, as on a device)."
    )
    var logPrivate = false

    @Option(
        help:
            "Keep containers, the bundle store and the journal here instead of a temporary directory (a later run with the same directory resumes unfinished downloads and redelivers unacknowledged events)."
    )
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
            // A temporary data directory goes when the command ends, however it ends (a bundle
            // that does not install included).
            let temporary = dataDirectory == nil ? configuration.dataDirectory : nil
            defer { if let temporary { removeTemporaryDataDirectory(temporary) } }
            var loaded: Scenario?
            if let scenario {
                do {
                    loaded = try Scenario.load(scenario)
                } catch {
                    throw BadInput("--scenario: \(error)")
                }
                loaded?.apply(to: &configuration)
            }
            if let clock { configuration.clock = clock.mode }
            try location.apply(to: &configuration)
            try connect.apply(to: &configuration)
            sandbox.apply(to: &configuration)
            let duration = duration?.duration ?? loaded?.duration ?? .seconds(10)
            configuration.logPath = log
            configuration.trace = quiet || json || progress ? nil : .standardOutput
            configuration.debugReloads = debugReloads
            for budget in budgets { budget.apply(&configuration.budgetOverrides) }
            for pair in environment {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty else { throw BadInput("--env \(pair): expected NAME=VALUE") }
                configuration.extensionEnvironment[parts[0]] = parts[1]
            }
            configuration.revealsPrivateLogValues = logPrivate
            for pair in appGroupSeeds {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                var isDirectory: ObjCBool = false
                guard parts.count == 2, parts[0].hasPrefix("group."), !parts[1].isEmpty else {
                    throw BadInput("--app-group \(pair): expected GROUP=DIR, e.g. group.com.example.app=seed/")
                }
                guard FileManager.default.fileExists(atPath: parts[1], isDirectory: &isDirectory), isDirectory.boolValue else {
                    throw BadInput("--app-group \(pair): \(parts[1]) is not a directory")
                }
                configuration.appGroupSeeds[parts[0]] = parts[1]
            }
            for pair in configurations {
                let (widget, json) = try WidgetConfigurationArgument.parse(pair)
                configuration.widgetConfigurations[widget] = json
            }
            let host = try await ExtensionHost(configuration)
            for app in apps {
                do {
                    try await host.install(app)
                } catch let error as BundleError {
                    _ = await host.shutdown()
                    throw BadInput("cannot install \(app): \(error)")
                } catch let error as AppGroupError {
                    _ = await host.shutdown()
                    throw BadInput("cannot install \(app): \(error)")
                }
            }
            let outputs = try await RunOutputs.start(
                host, trace: trace, progress: progress ? .shown : (quiet || json ? .onTerminal : .off),
                duration: duration, virtualClock: configuration.clock == .virtual)
            await host.start()
            await host.run(for: duration)
            let failures = loaded?.failures(in: await host.events()) ?? []
            let summary = await host.shutdown()
            try await outputs.finish(host, report: report, log: log)
            if json {
                var extra: [(String, JSONValue)] = []
                if let loaded, !loaded.expectations.isEmpty {
                    extra.append(
                        (
                            "expectations",
                            .object([
                                ("count", .int(Int64(loaded.expectations.count))),
                                ("notMet", .array(failures.map { .string("\($0)") }))
                            ])
                        ))
                }
                say(summary.json(adding: extra))
            } else {
                say("\(summary)")
                if let loaded, !loaded.expectations.isEmpty {
                    if failures.isEmpty {
                        say("scenario: all \(loaded.expectations.count) expectations met")
                    } else {
                        say("scenario: \(failures.count) of \(loaded.expectations.count) expectations not met:")
                        for failure in failures { say("  ✗ \(failure)") }
                    }
                }
            }
            return summary.invariantViolations > 0 || !failures.isEmpty ? 1 : 0
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

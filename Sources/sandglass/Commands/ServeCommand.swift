import ArgumentParser
import Foundation
import Logging
import SandglassDaemon
import SandglassHost
import SandglassReport
import ServiceLifecycle
import UnixSignals

/// `sandglass serve`: the host as a daemon, with a control socket and Prometheus metrics.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the host as a daemon: a control socket for `sandglass ctl`, Prometheus metrics, graceful on SIGTERM.",
        discussion: """
            Installs the apps and runs their extensions until SIGTERM or SIGINT. Then it stops gracefully: the \
            control socket and the metrics endpoint close, every extension is killed with reason hostShutdown and \
            reaped, run.end is written and the log closed; the journal keeps unfinished downloads and unacknowledged \
            events for the next start on the same --data-directory.

            The control socket (mode 0600) answers `sandglass ctl status | reload | kill | visibility | location | clock`. \
            --metrics serves Prometheus's text format at http://ADDRESS/metrics (names start with sandglass_).

            Examples:
              sandglass serve Leaderboard.app --metrics 127.0.0.1:9464
              sandglass serve Leaderboard.app --control /run/sandglass.sock --data-directory /var/lib/sandglass --log /var/log/sandglass.jsonl
              sandglass ctl status
            """
    )

    @Argument(help: "The app bundles (.app) to install.")
    var apps: [String] = []

    @Option(help: "The control socket's path (default: $XDG_RUNTIME_DIR/sandglass.sock, else /tmp/sandglass-UID.sock).")
    var control: String?

    @Option(help: "Serve Prometheus metrics on this address: 127.0.0.1:PORT (port 0: any free port, printed).")
    var metrics: MetricsAddress?

    @Option(help: "real, or virtual.")
    var clock: ClockChoice = .real

    @Option(help: "Write the event log (JSON lines) to this file.")
    var log: String?

    @Option(help: "Write a Chrome / Perfetto trace (JSON) of the daemon's run to this file.")
    var trace: String?

    @Option(
        help:
            "Keep containers, the bundle store and the journal here (a restart on the same directory resumes downloads and redelivers events)."
    )
    var dataDirectory: String?

    @Option(name: .customLong("budget"), help: "Override a budget for every extension: NAME=VALUE (as for run).")
    var budgets: [BudgetOption] = []

    @Option(name: .customLong("env"), help: "An environment variable for every extension process: NAME=VALUE (repeatable).")
    var environment: [String] = []

    @OptionGroup(title: "Network")
    var connect: ConnectOptions

    @OptionGroup(title: "Sandbox")
    var sandbox: SandboxOptions

    @Option(
        help:
            "How many of the latest events to keep in memory for `ctl status` and the summary at the end (the --log file keeps every one).")
    var eventHistory = 100_000

    @Option(
        name: .customLong("event-history-mib"),
        help: "And at most this many MiB of them (the events' JSON), whichever bound is reached first.")
    var eventHistoryMiB = 64

    @Flag(help: "Also print the readable trace of every event on standard output.")
    var verbose = false

    func run() async throws {
        try await reportingBadInput {
            var configuration = dataDirectory.map { HostConfiguration(dataDirectory: $0) } ?? .temporary()
            // A temporary data directory goes when the command ends, however it ends (a bundle
            // that does not install included).
            let temporary = dataDirectory == nil ? configuration.dataDirectory : nil
            defer { if let temporary { removeTemporaryDataDirectory(temporary) } }
            configuration.clock = clock.mode
            configuration.logPath = log
            configuration.eventHistoryLimit = eventHistory
            guard eventHistoryMiB > 0 else { throw BadInput("--event-history-mib \(eventHistoryMiB): expected a positive number of MiB") }
            configuration.eventHistoryBytes = eventHistoryMiB << 20
            configuration.trace = verbose ? .standardOutput : nil
            for budget in budgets { budget.apply(&configuration.budgetOverrides) }
            try connect.apply(to: &configuration)
            sandbox.apply(to: &configuration)
            for pair in environment {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty else { throw BadInput("--env \(pair): expected NAME=VALUE") }
                configuration.extensionEnvironment[parts[0]] = parts[1]
            }
            var logger = Logger(label: "sandglass.serve")
            logger.logLevel = .warning

            // The control socket first: its umask must not meet files the host creates.
            let tally = RunTally()
            let commands = CommandsBox()
            let controlPath = control ?? ControlSocket.defaultPath
            let controlServer: ControlServer
            do {
                let refused: @Sendable (pid_t?, String) async -> Void = { pid, reason in
                    if let pid, let host = commands.value?.host { await host.controlRefused(pid: pid, detail: reason) }
                }
                controlServer = try await ControlServer.bind(path: controlPath, logger: logger, refused: refused) { request in
                    guard let commands = commands.value else { return ControlResponse(ok: false, message: "the daemon is starting") }
                    return await commands.respond(request)
                }
            } catch let error as ControlError {
                throw BadInput(error.description)
            }
            // The metrics before the host, whose fetches for extensions never reach them.
            let hostMetrics = HostMetrics()
            var metricsServer: MetricsServer?
            if let metrics {
                do {
                    metricsServer = try await MetricsServer.bind(
                        host: metrics.host, port: metrics.port, metrics: hostMetrics, logger: logger)
                } catch {
                    unlink(controlPath)
                    throw BadInput("cannot listen on \(metrics) for metrics: \(error)")
                }
                configuration.connectPolicy.deniedEndpoints.append(
                    .init(listeningOn: metrics.host, port: UInt16(metricsServer!.port), what: "the daemon's own metrics endpoint"))
            }
            let host: ExtensionHost
            do {
                host = try await ExtensionHost(configuration)
                for app in apps {
                    do {
                        try await host.install(app)
                    } catch let error as BundleError {
                        _ = await host.shutdown()
                        throw BadInput("cannot install \(app): \(error)")
                    }
                }
            } catch {
                unlink(controlPath)
                throw error
            }
            commands.value = ControlCommands(host: host, tally: tally)
            var services: [any Service] = []
            let traceRecorder = try await trace.asyncMap { try await TraceRecorder.record(host, to: $0) }
            services.append(
                HostService(host: host, observers: [tally.record, hostMetrics.record]) { summary in
                    let journal =
                        temporary == nil
                        ? "the journal is kept for the next start" : "the temporary data directory is removed (--data-directory keeps it)"
                    say("stopped: every extension killed with reason hostShutdown and reaped; \(journal)\n\(summary)")
                })
            services.append(controlServer)
            say(
                "control socket \(controlPath) (mode 0600) — try `sandglass ctl status\(control == nil ? "" : " --control \(controlPath)")`"
            )
            if let metricsServer {
                services.append(metricsServer)
                say("metrics on http://\(metricsServer.host):\(metricsServer.port)/metrics")
            }
            let installed = await host.installedExtensions()
            say(
                "serving \(installed.count) extension\(installed.count == 1 ? "" : "s") (pid \(getpid())) — SIGTERM or Ctrl-C stops gracefully"
            )
            let group = ServiceGroup(
                configuration: ServiceGroupConfiguration(
                    services: services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) },
                    gracefulShutdownSignals: [.sigterm, .sigint],
                    logger: logger))
            try await group.run()
            try await traceRecorder?.finish()
        }
    }
}

/// The control commands, set once the host exists (the socket is bound before it).
private final class CommandsBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: ControlCommands?

    var value: ControlCommands? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

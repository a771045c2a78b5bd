import ArgumentParser
import Foundation
import SandglassHost
import SandglassTesting

/// `sandglass demo`: the whole story on the example apps, in a few seconds.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract:
            "Show the system side at work on the example apps: spawn, hello, timelines, idle termination, a budget kill, a background download and the relaunch by session identifier.",
        discussion: "Needs the example bundles: `make demo` builds them and runs this."
    )

    @Option(help: "Where the built example bundles are (default: .build/examples).")
    var examples: String?

    @Option(help: "Also write the event log (JSON lines) here.")
    var log: String?

    func run() async throws {
        let examplesDir = try await reportingBadInput { try ExamplesDirectory.locate(examples) }
        say(
            """
            Sandglass demo — the system side of widget extensions, on Linux.

            Three apps are installed; every extension is its own sandboxed process.
            · Leaderboard's widget answers placeholder, snapshot and timeline requests, and is terminated once
              it has been idle for 2 s.
            · Hanging's widget never calls its getTimeline completion: its 1 s budget runs out and the host
              SIGKILLs it, while the host and the other widgets go on.
            · Downloader's widget starts a background download (from a test server on 127.0.0.1) and is
              terminated before it finishes. The host completes the download, relaunches the extension by its
              session identifier, delivers didFinishDownloadingTo, and forgets the events only when the widget
              calls the completion handler it was given.

            """)
        let server = try await FixtureServer.start()
        var configuration = HostConfiguration.temporary()
        configuration.trace = .standardOutput
        configuration.logPath = log
        configuration.budgetOverrides.idle = .seconds(2)
        configuration.extensionEnvironment["SANDGLASS_FIXTURE_URL"] = server.url("/bytes/262144?chunk=16384&interval=200")
        let host = try await ExtensionHost(configuration)
        defer { removeTemporaryDataDirectory(configuration.dataDirectory) }
        try await host.install(examplesDir + "/Leaderboard.app")
        try await host.install(examplesDir + "/Hanging.app")
        try await host.install(examplesDir + "/Downloader.app")
        await host.start()

        var missing: [String] = []
        let steps: [(String, @Sendable (HostEvent) -> Bool)] = [
            ("a timeline from Leaderboard", { $0.kind == .timeline && $0.bundle == "com.example.leaderboard.widget" }),
            ("the budget kill of Hanging", { $0.kind == .killed && $0.string("reason") == "timeBudget" }),
            (
                "the idle termination of Leaderboard",
                { $0.kind == .killed && $0.string("reason") == "idle" && $0.bundle == "com.example.leaderboard.widget" }
            ),
            (
                "the relaunch of Downloader for its session's events",
                { $0.kind == .eventDelivered && $0.bundle == "com.example.downloader.widget" }
            ),
            ("the acknowledgement of the download's events", { $0.kind == .eventsFinished })
        ]
        for (what, predicate) in steps {
            do {
                _ = try await host.waitForEvent(timeout: .seconds(15), where: predicate)
            } catch {
                missing.append(what)
            }
        }
        let summary = await host.shutdown()
        await server.stop()
        say("\n\(summary)")
        if !missing.isEmpty {
            FileHandle.standardError.write(Data("demo: did not see \(missing.joined(separator: ", "))\n".utf8))
            throw ExitCode(1)
        }
        say("\nThe demo ran as expected. Next: `sandglass run \(examplesDir)/Leaderboard.app --duration 30s`.")
    }
}

import ArgumentParser
import Foundation
@_spi(Measurements) import SandglassHost
import SandglassIPC

/// `sandglass bench`: each figure beside a baseline measured in the same run, as a ratio.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure Sandglass against baselines from the same run and print the ratios.",
        discussion: """
        spawn: sandboxed cold spawn → hello of the Leaderboard example, against the same binary spawned \
        without any sandbox, interleaved. ipc: a ping/pong request through the host's channel and the \
        SDK's reader thread, against a raw socketpair round trip of the same size to a child that echoes. \
        week: 7 virtual days of the 50 widgets of Fleet.app (mixed reload policies) on the virtual clock \
        with warm processes, in wall seconds (target ≤ 10 s), and the speed-up; then one virtual day with \
        the default idle budget (a cold launch for most reloads), to show where the time goes.

        Examples:
          sandglass bench --quick
          sandglass bench --json figures.json
          sandglass bench --only week
          sandglass bench --shard 2/4 --json shard-2.json   # a quarter of the samples, for a campaign

        With --shard INDEX/COUNT the samples of each figure are split: sample k is taken by shard k mod COUNT \
        (the week, one sample, by shard 0).
        """
    )

    @Flag(help: "Fewer samples: a few seconds.")
    var quick = false

    @Option(help: "Where the built example bundles are (default: .build/examples).")
    var examples: String?

    @Option(help: "Write the figures as JSON here.")
    var json: String?

    @Option(help: "Measure only these figures: spawn, ipc, week (repeat the option for several).")
    var only: [String] = []

    @Option(help: ShardOption.help)
    var shard: ShardOption?

    @Flag(help: "No progress; only the figures.")
    var quiet = false

    func run() async throws {
        let dir = try await reportingBadInput { try ExamplesDirectory.locate(examples) }
        let app = dir + "/Leaderboard.app"
        let bundle = "com.example.leaderboard.widget"
        let part = shard?.shard ?? .whole
        let launches = part.share(of: quick ? 100 : 400)
        let pings = max(1, part.share(of: quick ? 5_000 : 50_000))
        let progress = ProgressLine("bench", enabled: !quiet)
        defer { progress.finish() }

        let unknown = only.filter { !["spawn", "ipc", "week"].contains($0) }
        if !unknown.isEmpty {
            _ = try await reportingBadInput { () throws -> Int in throw BadInput("unknown figure \(unknown.joined(separator: ", ")); the figures are spawn, ipc, week") }
        }
        say("Sandglass bench\(quick ? " (quick)" : "")\(shard.map { " · shard \($0)" } ?? "") — \(machineSummary())\n")
        var figures: [String: Any] = ["machine": machineSummary(), "shard": part.description]
        if only.isEmpty || only.contains("spawn") || only.contains("ipc") {
            try await measureProcesses(app: app, bundle: bundle, launches: launches, pings: pings, progress: progress, figures: &figures)
        }
        if (only.isEmpty || only.contains("week")) && part.owns(0) {
            progress.update(nil, "7 virtual days of Fleet's 50 widgets, then one cold day · \(progress.elapsed)")
            let week = try await VirtualWeek.measure(examples: dir, days: 7, warm: true)
            progress.finish()
            say("\n" + week.rendered + (week.wallSeconds <= 10 ? "\n  (target ≤ 10 s of wall time: met)" : "\n  (target ≤ 10 s of wall time: missed)"))
            progress.update(nil, "one cold virtual day of Fleet · \(progress.elapsed)")
            let cold = try await VirtualWeek.measure(examples: dir, days: 1, warm: false)
            progress.finish()
            say("\n" + cold.rendered)
            figures["week"] = week.json
            figures["week.speedup"] = week.speedUp
            figures["dayCold"] = cold.json
        }
        if let json {
            let data = try JSONSerialization.data(withJSONObject: figures, options: [.prettyPrinted, .sortedKeys])
            try data.write(to: URL(fileURLWithPath: json))
            say("\nfigures written to \(json)")
        }
    }

    private func measureProcesses(app: String, bundle: String, launches: Int, pings: Int, progress: ProgressLine,
                                  figures: inout [String: Any]) async throws {
        var sandboxedConfig = HostConfiguration.temporary()
        sandboxedConfig.schedulesWidgets = false
        sandboxedConfig.budgetOverrides.idle = .seconds(600)
        var bareConfig = HostConfiguration.temporary()
        bareConfig.schedulesWidgets = false
        bareConfig.sandbox = .bare
        bareConfig.budgetOverrides.idle = .seconds(600)
        let sandboxed = try await ExtensionHost(sandboxedConfig)
        let bare = try await ExtensionHost(bareConfig)
        defer {
            try? FileManager.default.removeItem(atPath: sandboxedConfig.dataDirectory)
            try? FileManager.default.removeItem(atPath: bareConfig.dataDirectory)
        }
        try await sandboxed.install(app)
        try await bare.install(app)

        // Spawn → hello, interleaved so that machine noise hits both alike.
        var spawnSandboxed = Distribution(), spawnBare = Distribution()
        for _ in 0..<5 {
            _ = await sandboxed.measureColdLaunch(bundle)
            _ = await bare.measureColdLaunch(bundle)
        }
        for i in 0..<launches {
            progress.update(Double(i) / Double(launches) * 0.5, "spawn → hello \(i)/\(launches) · \(progress.elapsed)")
            if let ns = await sandboxed.measureColdLaunch(bundle) { spawnSandboxed.record(ns) }
            if let ns = await bare.measureColdLaunch(bundle) { spawnBare.record(ns) }
        }

        // IPC: pings through the sandboxed host, then the raw baseline.
        progress.update(0.5, "IPC round trips (\(pings) pings, four ways) · \(progress.elapsed)")
        let frameSize = Frame.encode(.ping(UInt64(pings))).count
        _ = await sandboxed.measurePings(bundle, count: 500, cpu: 0)
        let ipc = Distribution(await sandboxed.measurePings(bundle, count: pings, cpu: 0))
        let raw = Distribution(try await RawRoundTrip.measure(count: pings, size: frameSize, cpu: 0))
        let ipcFree = Distribution(await sandboxed.measurePings(bundle, count: pings))
        let rawFree = Distribution(try await RawRoundTrip.measure(count: pings, size: frameSize, cpu: nil))

        await sandboxed.shutdown()
        await bare.shutdown()
        progress.finish()

        let table = FigureTable(rows: [
            .init(name: "spawn → hello, sandboxed", distribution: spawnSandboxed, baselineName: "same binary, no sandbox", baseline: spawnBare, target: 1.10),
            .init(name: "IPC ping round trip, one CPU", distribution: ipc, baselineName: "raw socketpair echo, one CPU", baseline: raw, target: 2.0),
            .init(name: "IPC ping round trip, unpinned", distribution: ipcFree, baselineName: "raw socketpair echo, unpinned", baseline: rawFree, target: nil),
        ])
        say(table.rendered)
        figures["spawn"] = table.rows[0].json
        figures["ipc"] = table.rows[1].json
        figures["spawn.ratio"] = table.rows[0].ratio
        figures["ipc.ratio"] = table.rows[1].ratio
        figures["ipcUnpinned"] = table.rows[2].json
    }
}

/// `2 cores · Linux 6.18 · Swift 6.3.1`.
func machineSummary() -> String {
    var uts = utsname()
    uname(&uts)
    let release = withUnsafeBytes(of: uts.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    return "\(ProcessInfo.processInfo.activeProcessorCount) cores · Linux \(release)"
}

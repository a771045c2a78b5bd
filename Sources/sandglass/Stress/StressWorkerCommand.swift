import ArgumentParser
import Foundation
import Glibc
import SandglassHost
import SandglassIPC
import SandglassTesting

/// `sandglass stress-worker`: one host of a stress run, as a process of its own so that its
/// death is real. Started (and killed) by `sandglass stress`; speaks to it in lines on standard
/// output: `ready`, `progress ITERATION KILLS`, `kill-me` (kill me now), `done`.
struct StressWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stress-worker",
        abstract: "One host of a stress run (started by sandglass stress).",
        shouldDisplay: false
    )

    @Argument var apps: [String]
    @Option var dataDirectory: String
    @Option var log: String
    @Option var seed: UInt64
    @Option var faults: String
    @Option var first: Int
    @Option var count: Int
    /// Iterations `first`, `first + stride`, … (`count` of them): a shard's part of the run.
    @Option var stride: Int = 1
    @Option var ending: String
    @Option(name: .customLong("env")) var environment: [String] = []
    @OptionGroup var connect: ConnectOptions
    @OptionGroup var sandbox: SandboxOptions
    /// Take no further iteration after this time (seconds since 1970): `--duration` runs.
    @Option var stopAt: Double?

    func run() async throws {
        guard let ending = EpochEnding(argument: ending) else {
            throw ValidationError("--ending \(ending) is not shutdown, step:NAME or after:MS")
        }
        let plan = StressPlan(seed: seed, faults: try ChaosFault.parse(faults))
        ProcessHygiene.prepareBaseline()
        let baseline = ProcessHygiene.openDescriptors()

        var configuration = HostConfiguration(dataDirectory: dataDirectory)
        configuration.clock = .virtual
        configuration.logPath = log
        // Failures are part of chaos: backoff short enough that the run goes on.
        configuration.relaunchBackoff = RelaunchBackoff(initial: .milliseconds(50), maximum: .seconds(2))
        for pair in environment {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { configuration.extensionEnvironment[parts[0]] = parts[1] }
        }
        try connect.apply(to: &configuration)
        sandbox.apply(to: &configuration)
        var host: ExtensionHost? = try await ExtensionHost(configuration)
        var bundles: [String] = []
        for app in apps {
            let installed = try await host!.install(app)
            bundles += installed.extensions.filter { $0.role == .widgetKit }.map(\.bundleIdentifier)
        }
        await host!.start()
        var runner: ChaosRunner? = try await ChaosRunner(host: host!, plan: plan, bundles: bundles)
        say("ready")
        do {
            for iteration in Swift.stride(from: first, to: first + count * stride, by: stride) {
                if let stopAt, Date().timeIntervalSince1970 >= stopAt { break }
                await host!.record(
                    .stressIteration, [("iteration", .int(Int64(iteration))), ("action", .string("\(plan.action(iteration))"))])
                try await runner!.run(iteration: iteration)
                say("progress \(iteration) \(runner!.killCount)")
            }
            switch ending {
            case .hostKilledAt(let step):
                say("dying at \(step.rawValue)")
                await runner!.killHost(at: step)
            case .hostKilledAfter:
                say("kill-me")
                try await runner!.idleUntilKilled()
            case .shutdown:
                guard await runner!.drain() else {
                    throw ChaosRunner.Stall(
                        description:
                            "the run did not drain: \(await host!.unfinishedTransfers()) downloads unfinished, \(await host!.unacknowledgedEvents()) events unacknowledged after \(runner!.deadline)"
                    )
                }
            }
        } catch let stall as ChaosRunner.Stall {
            await host!.record(.stressStall, [("detail", .string(stall.description))])
            say("stall \(stall.description)")
            // The host dies here without a shutdown; its supervisor checks what it leaves.
            Foundation.exit(3)
        }
        let spawned = await host!.events().filter { $0.kind == .spawned }.compactMap(\.pid)
        await host!.shutdown()
        let lastT = await host!.events().last?.t ?? 0
        runner = nil
        host = nil
        let after = ProcessHygiene.openDescriptors()
        let leaked = after.filter { baseline[$0.key] != $0.value }.sorted { $0.key < $1.key }.map { "fd \($0.key) → \($0.value)" }
        let children = ProcessHygiene.children()
        let left = spawned.filter { pid in children.contains { $0.pid == pid && $0.state != "Z" } }
        let line = HostEvent(
            t: lastT, name: .hygiene,
            fields: [
                ("hostPid", .int(Int64(getpid()))), ("fdBaseline", .int(Int64(baseline.count))), ("fds", .int(Int64(after.count))),
                ("leaked", .array(leaked.map { .string($0) })), ("zombies", .int(Int64(children.filter { $0.state == "Z" }.count))),
                ("processesLeft", .array(left.map { .int(Int64($0)) }))
            ])
        if let handle = FileHandle(forWritingAtPath: log) {
            handle.seekToEndOfFile()
            handle.write(Data((line.jsonLine + "\n").utf8))
            try? handle.close()
        }
        say("done")
    }
}

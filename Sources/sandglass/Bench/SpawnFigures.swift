import Foundation
@_spi(Measurements) import SandglassHost
import SandglassIPC

/// Spawn → hello of the Leaderboard example under the full sandbox, with no sandbox, and with one
/// layer at a time (rlimits, seccomp, Landlock, cgroup, namespaces, isolation) — one host per policy, every
/// launch interleaved round-robin so that machine noise hits all alike; then the IPC round trip
/// through the host's channel against a raw socketpair echo.
enum SpawnFigures {
    static let app = "/Leaderboard.app"
    static let bundle = "com.example.leaderboard.widget"

    /// The policies measured: the name in the table and the policy.
    static func policies() -> [(String, SandboxPolicy)] {
        func only(_ change: (inout SandboxPolicy) -> Void) -> SandboxPolicy {
            var policy = SandboxPolicy.bare
            change(&policy)
            return policy
        }
        return [
            ("sandboxed", .standard),
            ("bare", .bare),
            ("rlimits", only { $0.rlimits = true }),
            ("seccomp", only { $0.seccomp = true }),
            ("landlock", only { $0.landlock = true }),
            ("cgroup", only { $0.cgroups = true }),
            ("namespaces", only { $0.namespaces = true }),
            (
                "isolation",
                only {
                    $0.isolation = true; $0.extensionUser = .automatic
                }
            )
        ]
    }

    struct Result {
        var rows: [FigureRow]
        /// Each layer's share of the bare launch: (median with it alone − bare median) / bare median.
        var layerShares: [(String, Double)]
    }

    static func measure(_ bench: BenchContext, layers: Bool, ipc: Bool) async throws -> Result {
        let policies = layers ? policies() : Array(policies().prefix(2))
        var hosts: [(String, ExtensionHost, HostConfiguration)] = []
        for (name, policy) in policies {
            var configuration = HostConfiguration.temporary()
            configuration.schedulesWidgets = false
            configuration.sandbox = policy
            configuration.budgetOverrides.idle = .seconds(600)
            let host = try await ExtensionHost(configuration)
            try await host.install(bench.examples + app)
            hosts.append((name, host, configuration))
        }
        defer { for (_, _, configuration) in hosts { removeTemporaryDataDirectory(configuration.dataDirectory) } }

        var launches = Array(repeating: Distribution(), count: hosts.count)
        let rounds = bench.samples(quick: 100, full: 400)
        bench.progress("spawn → hello", 0)
        for round in 0..<(rounds + 5) {
            for step in 0..<hosts.count {
                let index = (round + step) % hosts.count
                let ns = await hosts[index].1.measureColdLaunch(bundle)
                if round >= 5, let ns { launches[index].record(ns) }
            }
            if round % 20 == 0 { bench.progress("spawn → hello", Double(round) / Double(rounds + 5)) }
        }

        var rows = [
            FigureRow(
                key: "spawn", name: "spawn → hello, sandboxed", distribution: launches[0],
                baselineName: "same binary, no sandbox", baseline: launches[1], target: .ratio(1.10))
        ]
        var shares: [(String, Double)] = []
        for index in 2..<hosts.count {
            let name = hosts[index].0
            rows.append(
                FigureRow(
                    key: "spawn.layer.\(name)", name: "spawn → hello, \(name) alone", distribution: launches[index],
                    baselineName: "same binary, no sandbox", baseline: launches[1], target: nil))
            shares.append((name, launches[index].p50 / launches[1].p50 - 1))
        }

        if ipc {
            let sandboxed = hosts[0].1
            let pings = bench.samples(quick: 5_000, full: 50_000)
            bench.progress("IPC round trips", nil)
            let frameSize = Frame.encode(.ping(UInt64(pings))).count
            _ = await sandboxed.measurePings(bundle, count: 500, cpu: 0)
            // Interleaved in blocks: host, raw, host, raw… pinned to one CPU, then unpinned.
            var pinned = Distribution(), raw = Distribution(), free = Distribution(), rawFree = Distribution()
            let blocks = 5
            for _ in 0..<blocks {
                for ns in await sandboxed.measurePings(bundle, count: pings / blocks, cpu: 0) { pinned.record(ns) }
                for ns in try await RawRoundTrip.measure(count: pings / blocks, size: frameSize, cpu: 0) { raw.record(ns) }
            }
            for _ in 0..<blocks {
                for ns in await sandboxed.measurePings(bundle, count: pings / blocks) { free.record(ns) }
                for ns in try await RawRoundTrip.measure(count: pings / blocks, size: frameSize, cpu: nil) { rawFree.record(ns) }
            }
            rows.append(
                FigureRow(
                    key: "ipc", name: "IPC ping round trip, one CPU", distribution: pinned,
                    baselineName: "raw socketpair echo, one CPU", baseline: raw, target: .ratio(2.0)))
            rows.append(
                FigureRow(
                    key: "ipc.unpinned", name: "IPC ping round trip, unpinned", distribution: free,
                    baselineName: "raw socketpair echo, unpinned", baseline: rawFree, target: nil))
        }
        for (_, host, _) in hosts { await host.shutdown() }
        return Result(rows: rows, layerShares: shares)
    }
}

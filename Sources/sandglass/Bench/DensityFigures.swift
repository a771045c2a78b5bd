import CSandbox
import Foundation
@_spi(Measurements) import SandglassHost

/// Density: one host launches extensions of a synthetic app (the Fleet executable, hard-linked)
/// until `ceiling` are live — or a launch fails — then stays idle for an interval: the host's CPU
/// over it (CLOCK_PROCESS_CPUTIME_ID, cross-checked with utime + stime of /proc/self/stat), its
/// resident size, and the extensions' own CPU meanwhile. Afterwards every extension must still
/// answer a ping. Baseline: the same host's resident size with none live, read in the same run.
enum DensityFigures {
    struct Result {
        var rows: [ScalarRow]
        var json: [String: Any]
        var live: Int
    }

    static func measure(_ bench: BenchContext, ceiling: Int, scratch: String) async throws -> Result {
        let directory = scratch + "/density"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        bench.progress("density: writing \(ceiling) bundles", nil)
        let app = try SyntheticApp.make(count: ceiling, examples: bench.examples, in: directory)
        var configuration = HostConfiguration.temporary()
        configuration.schedulesWidgets = false
        configuration.budgetOverrides.idle = .seconds(3600)
        let host = try await ExtensionHost(configuration)
        defer { removeTemporaryDataDirectory(configuration.dataDirectory) }
        try await host.install(app)
        let emptyKiB = ProcessStats.residentKiB() ?? 0

        var live: [Int32] = []
        var failure: String?
        let started = sg_monotonic_ns()
        for index in 0..<ceiling {
            guard let pid = await host.launch(SyntheticApp.bundle(index)) else {
                failure = "launch #\(index + 1) failed (see the host's spawn.failed event)"
                break
            }
            live.append(pid)
            if index % 50 == 0 { bench.progress("density: \(index + 1) live", Double(index) / Double(ceiling)) }
        }
        let launchSeconds = Double(sg_monotonic_ns() - started) / 1e9
        bench.progress("density: \(live.count) live, idle interval", nil)
        // Let the last launches settle, then the idle interval.
        try await Task.sleep(for: .milliseconds(500))
        let interval: Duration = bench.size.choose(smoke: .milliseconds(500), quick: .seconds(3), full: .seconds(10))
        let childrenBefore = live.map { ProcessStats.cpuTicks(String($0)) ?? 0 }.reduce(0, +)
        let ticksBefore = ProcessStats.cpuTicks() ?? 0
        let cpuBefore = ProcessStats.cpuNanoseconds()
        let wallBefore = sg_monotonic_ns()
        try await Task.sleep(for: interval)
        let wall = Double(sg_monotonic_ns() - wallBefore) / 1e9
        let hostCPU = Double(ProcessStats.cpuNanoseconds() - cpuBefore) / 1e9 / wall
        let hostTicks = Double((ProcessStats.cpuTicks() ?? 0) - ticksBefore) / ProcessStats.ticksPerSecond / wall
        let childrenCPU =
            Double(live.map { ProcessStats.cpuTicks(String($0)) ?? 0 }.reduce(0, +) - childrenBefore)
            / ProcessStats.ticksPerSecond / wall
        let hostKiB = ProcessStats.residentKiB() ?? 0
        let childKiB = live.prefix(20).compactMap { ProcessStats.residentKiB(String($0)) }
        let perChildKiB = childKiB.isEmpty ? 0 : childKiB.reduce(0, +) / childKiB.count
        let openFiles = ProcessStats.openFiles

        // Still live: every one answers a ping.
        var answered = 0
        for index in 0..<live.count {
            if await !host.measurePings(SyntheticApp.bundle(index), count: 1).isEmpty { answered += 1 }
        }
        await host.shutdown()

        let perExtensionKiB = live.isEmpty ? 0 : Double(hostKiB - emptyKiB) / Double(live.count)
        let met = live.count >= 500 && hostCPU <= 0.01
        var notes = [
            "\(live.count) live of \(ceiling) asked" + (failure.map { ": \($0)" } ?? " (the ceiling of this run; no launch failed)")
                + String(format: ", launched in %.1f s; %d answered a ping after the idle interval", launchSeconds, answered),
            String(
                format:
                    "host idle CPU %.3f %% of one core over %.0f s (utime+stime of /proc/self/stat: %.2f %%); the extensions together %.2f %%",
                hostCPU * 100, wall, hostTicks * 100, childrenCPU * 100),
            String(
                format: "host RSS %.1f MiB with %d live, %.1f MiB with none: %.1f KiB per extension; %d descriptors open (limit %llu)",
                Double(hostKiB) / 1024, live.count, Double(emptyKiB) / 1024, perExtensionKiB, openFiles, ProcessStats.openFileLimit),
            "each extension's own RSS ≈ \(perChildKiB / 1024) MiB (sampled over 20)"
        ]
        if let available = ProcessStats.memoryAvailableKiB, perChildKiB > 0 {
            notes.append("memory available now \(available / 1024) MiB: room for about \(available / perChildKiB) more at that size")
        }
        let rows = [
            ScalarRow(
                key: "density.live", name: "live extensions held by one host", value: Double(live.count), unit: "",
                baselineName: "asked (the run's ceiling)", baseline: Double(ceiling), target: "≥ 500, host idle ≈ 0 % CPU",
                met: met, notes: notes),
            ScalarRow(
                key: "density.hostRSS", name: "host RSS with them live", value: Double(hostKiB) / 1024, unit: "MiB",
                baselineName: "same host, none live", baseline: Double(emptyKiB) / 1024, target: nil, met: nil),
            ScalarRow(
                key: "density.idleCPU", name: "host CPU while they idle", value: hostCPU * 100, unit: "% of a core",
                baselineName: "the extensions together", baseline: childrenCPU * 100, target: "≈ 0 %", met: hostCPU <= 0.01)
        ]
        let json: [String: Any] = [
            "live": live.count, "asked": ceiling, "answered": answered, "failure": failure ?? NSNull(),
            "hostRSS_MiB": Double(hostKiB) / 1024, "hostRSSEmpty_MiB": Double(emptyKiB) / 1024, "perExtension_KiB": perExtensionKiB,
            "hostIdleCPU_percent": hostCPU * 100, "hostIdleCPUFromStat_percent": hostTicks * 100,
            "extensionsIdleCPU_percent": childrenCPU * 100, "idleInterval_s": wall, "launch_s": launchSeconds,
            "extensionRSS_MiB": Double(perChildKiB) / 1024, "openFiles": openFiles
        ]
        return Result(rows: rows, json: json, live: live.count)
    }
}

import Foundation
@_spi(Measurements) import SandglassHost
import SandglassIPC

/// Refresh latency: an app-intent reload of the Leaderboard widget requested on the host's loop →
/// its `timeline` event recorded (the scheduler's decision and ledger entry, the activation, the
/// provider, the reply decoded, the timeline recorded). Warm: the process is running; baseline, a
/// raw socketpair round trip (what moving the bytes costs with nothing else). Cold: the process
/// was killed and reaped first, so the refresh includes the sandboxed launch; baseline, the cold
/// start of the static hello-world. Interleaved: cold, warm, baselines, round after round.
enum RefreshFigures {
    static let widget = "Leaderboard"

    static func measure(_ bench: BenchContext) async throws -> [FigureRow] {
        var configuration = HostConfiguration.temporary()
        configuration.budgetOverrides.idle = .seconds(600)
        let host = try await ExtensionHost(configuration)
        defer { removeTemporaryDataDirectory(configuration.dataDirectory) }
        try await host.install(bench.examples + SpawnFigures.app)
        await host.start()
        _ = try await host.waitForEvent(timeout: .seconds(30)) { $0.kind == .timeline && $0.string("kind") == widget }

        let hello = try HelloWorldBaseline.executable(in: bench.examples)
        let frameSize = Frame.encode(
            .timelineRequest(
                RequestID(1),
                ActivationContext(
                    kind: widget, family: "systemSmall", isPreview: false,
                    displayWidth: 170, displayHeight: 170))
        ).count
        var warm = Distribution(), cold = Distribution(), raw = Distribution(), floor = Distribution()
        let rounds = bench.samples(quick: 60, full: 300)
        bench.progress("refresh latency", 0)
        for round in 0..<(rounds + 3) {
            let c = await host.measureRefresh(widget, cold: true)
            let w = await host.measureRefresh(widget, cold: false)
            let h = try await HelloWorldBaseline.measure(hello, count: 1)
            // The raw echo child is started anew for each block: a block every tenth round.
            let r = round % 10 == 0 ? try await RawRoundTrip.measure(count: 200, size: frameSize, cpu: nil, warmup: 20) : []
            guard round >= 3 else { continue }
            if let c { cold.record(c) }
            if let w { warm.record(w) }
            for sample in h { floor.record(sample.firstOutput) }
            for ns in r { raw.record(ns) }
            if round % 10 == 0 { bench.progress("refresh latency", Double(round) / Double(rounds)) }
        }
        await host.shutdown()
        return [
            FigureRow(
                key: "refresh.warm", name: "refresh, warm: request → timeline", distribution: warm,
                baselineName: "raw socketpair round trip", baseline: raw, target: nil),
            FigureRow(
                key: "refresh.cold", name: "refresh, cold: request → timeline", distribution: cold,
                baselineName: "static hello-world: spawn → output", baseline: floor, target: nil)
        ]
    }
}

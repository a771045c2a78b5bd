import CSandbox
import Foundation
@_spi(Measurements) import SandglassHost
import SandglassIPC

/// Refreshes per second with 1, 10 and 100 warm extensions (the Fleet executable, ten widget
/// kinds each, so 10, 100 and 1,000 widgets): every widget is asked for an app-intent reload
/// again as soon as its timeline is recorded (closed loop), for a fixed window of wall time.
/// Baseline, in the same run: one epoll thread driving as many raw echo peers with as many
/// requests in flight (ten per peer), timeline-request bytes out and reply bytes back.
enum ThroughputFigures {
    /// How many warm extensions: 1, 10 and 100 (`--smoke`: 1 and 10, which take seconds, not ten).
    static func counts(_ size: BenchSize) -> [Int] { size == .smoke ? [1, 10] : [1, 10, 100] }
    static let widgetsPerExtension = 10

    static func measure(_ bench: BenchContext, scratch: String) async throws -> [ScalarRow] {
        let window: Duration = bench.size.choose(smoke: .milliseconds(200), quick: .seconds(2), full: .seconds(5))
        let requestSize = Frame.encode(
            .timelineRequest(
                RequestID(1),
                ActivationContext(
                    kind: "Quarterly", family: "systemSmall", isPreview: false,
                    displayWidth: 170, displayHeight: 170))
        ).count
        var rows: [ScalarRow] = []
        for count in counts(bench.size) {
            bench.progress("throughput, \(count) extensions", nil)
            let directory = scratch + "/throughput-\(count)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let app = try SyntheticApp.make(count: count, examples: bench.examples, in: directory)
            var configuration = HostConfiguration.temporary()
            configuration.budgetOverrides.idle = .seconds(3600)
            let host = try await ExtensionHost(configuration)
            try await host.install(app)
            await host.start()
            try await waitUntilQuiet(host, widgets: count * widgetsPerExtension)
            let bundles = Set((0..<count).map(SyntheticApp.bundle))
            // Two windows, the baseline's between them: the figure is the better of the two.
            let first = await host.measureThroughput(of: bundles, for: window)
            let raw = try await RawEchoFleet.measure(
                peers: count, inFlight: widgetsPerExtension, requestSize: requestSize,
                replySize: 256, duration: window)
            let second = await host.measureThroughput(of: bundles, for: window)
            await host.shutdown()
            removeTemporaryDataDirectory(configuration.dataDirectory)
            let rate = max(Double(first.timelines) / first.seconds, Double(second.timelines) / second.seconds)
            let rawRate = Double(raw.roundTrips) / raw.seconds
            rows.append(
                ScalarRow(
                    key: "throughput.\(count)",
                    name: "refreshes/s, \(count) warm extension\(count == 1 ? "" : "s") (\(count * widgetsPerExtension) widgets)",
                    value: rate, unit: "/s",
                    baselineName: "raw echo round trips/s, \(count) peer\(count == 1 ? "" : "s") × \(widgetsPerExtension) in flight",
                    baseline: rawRate, target: nil, met: nil,
                    notes: [
                        String(
                            format: "windows: %.0f and %.0f refreshes/s", Double(first.timelines) / first.seconds,
                            Double(second.timelines) / second.seconds)
                    ]))
        }
        return rows
    }

    /// Waits until every widget has its first timeline and no timeline was recorded for 300 ms
    /// (the greedy kinds' WidgetCenter requests have run into their budgets).
    private static func waitUntilQuiet(_ host: ExtensionHost, widgets: Int) async throws {
        let deadline = sg_monotonic_ns() + 120_000_000_000
        var last = -1
        var quietSince = sg_monotonic_ns()
        while sg_monotonic_ns() < deadline {
            try await Task.sleep(for: .milliseconds(100))
            let events = await host.events()
            let timelines = events.lazy.filter { $0.kind == .timeline }.count
            if timelines != last {
                last = timelines
                quietSince = sg_monotonic_ns()
            } else if timelines >= widgets && sg_monotonic_ns() - quietSince > 300_000_000 {
                return
            }
        }
    }
}

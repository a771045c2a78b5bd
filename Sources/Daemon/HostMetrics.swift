import CoreMetrics
import NIOConcurrencyHelpers
import Prometheus
import SandglassHost

/// A host's Prometheus metrics, kept up to date from its events through the swift-metrics API
/// (with swift-prometheus's factory and a registry of their own, so several hosts — or tests —
/// in one process never share counters). Every name starts with `sandglass_`.
///
/// | metric | labels |
/// |---|---|
/// | `sandglass_spawns_total` | `bundle` |
/// | `sandglass_kills_total` | `reason` |
/// | `sandglass_activations_total` | `kind`, `outcome` |
/// | `sandglass_activation_duration_seconds` (histogram) | `kind` |
/// | `sandglass_live_extensions` (gauge) | |
/// | `sandglass_timelines_total`, `sandglass_reloads_total` | `bundle`; `decision` |
/// | `sandglass_downloads_started_total`, `sandglass_downloads_total` | `result`: finished, failed |
/// | `sandglass_download_bytes_total` | |
/// | `sandglass_events_delivered_total`, `sandglass_events_acknowledged_total` | |
/// | `sandglass_sandbox_denials_total`, `sandglass_protocol_violations_total`, `sandglass_invariant_violations_total` | |
/// | `sandglass_host_events_total` | `event` (every event, new kinds included) |
public final class HostMetrics: Sendable {
    /// The registry the metrics are in; ``exposition()`` renders it.
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    private let live = NIOLockedValueBox<Set<Int64>>([])
    private let liveGauge: Meter

    /// Buckets of the activation latency histogram: 1 ms to 60 s.
    public static let latencyBuckets: [Duration] = [
        .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(5), .seconds(10),
        .seconds(30), .seconds(60)
    ]

    /// Metrics in a new registry.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = Self.latencyBuckets
        self.factory = factory
        liveGauge = Meter(label: "sandglass_live_extensions", dimensions: [], factory: factory)
        liveGauge.set(0)
    }

    /// Counts `event`.
    public func record(_ event: HostEvent) {
        count("sandglass_host_events_total", [("event", event.name)])
        switch event.kind {
        case .spawned:
            count("sandglass_spawns_total", [("bundle", event.bundle ?? "?")])
            if let pid = event.int("pid") { updateLive { $0.insert(pid) } }
        case .exited:
            if let pid = event.int("pid") { updateLive { $0.remove(pid) } }
        case .killed:
            count("sandglass_kills_total", [("reason", event.string("reason") ?? "?")])
        case .activationEnd:
            let kind = event.string("kind") ?? "?"
            count("sandglass_activations_total", [("kind", kind), ("outcome", event.string("outcome") ?? "?")])
            if let ms = event.double("ms") {
                Timer(label: "sandglass_activation_duration_seconds", dimensions: [("kind", kind)], factory: factory)
                    .recordNanoseconds(Int64(ms * 1_000_000))
            }
        case .timeline:
            count("sandglass_timelines_total", [("bundle", event.bundle ?? "?")])
        case .downloadStarted:
            if event.int("attempt") ?? 1 == 1 { count("sandglass_downloads_started_total") }
        case .downloadFinished, .downloadFailed:
            count("sandglass_downloads_total", [("result", event.kind == .downloadFinished ? "finished" : "failed")])
            if let bytes = event.int("bytes"), bytes > 0 { count("sandglass_download_bytes_total", by: bytes) }
        case .eventDelivered:
            count("sandglass_events_delivered_total")
        case .eventsFinished:
            count("sandglass_events_acknowledged_total", by: event.int("acknowledged") ?? 0)
        case .sandboxDenied:
            count("sandglass_sandbox_denials_total")
        case .protocolViolation:
            count("sandglass_protocol_violations_total")
        case .invariantViolated:
            count("sandglass_invariant_violations_total")
        default:
            if event.name.hasPrefix("reload.") {
                count("sandglass_reloads_total", [("decision", String(event.name.dropFirst("reload.".count)))])
            }
        }
    }

    /// The metrics in Prometheus's text exposition format.
    public func exposition() -> String {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    private func count(_ label: String, _ dimensions: [(String, String)] = [], by amount: Int64 = 1) {
        Counter(label: label, dimensions: dimensions, factory: factory).increment(by: amount)
    }

    private func updateLive(_ change: (inout Set<Int64>) -> Void) {
        let count = live.withLockedValue { pids in
            change(&pids)
            return pids.count
        }
        liveGauge.set(count)
    }
}

import Foundation
import SandglassHost
import ServiceLifecycle

/// A host as a service: starts its extensions, runs until graceful shutdown (SIGTERM, SIGINT),
/// then shuts it down the way the host always does — every extension killed with reason
/// `hostShutdown` and reaped, `run.end` written, the event log closed; the journal keeps
/// whatever is not yet acknowledged for the next start on the same data directory.
///
/// Every event of the run, from its start, is handed to each of `observers` (the metrics, the
/// tally of `ctl status`) until the host has shut down.
public struct HostService: Service {
    let host: ExtensionHost
    let observers: [@Sendable (HostEvent) -> Void]
    let stopped: @Sendable (RunSummary) async -> Void

    /// A service for `host`; `stopped` is called with the run's summary once it has shut down.
    public init(
        host: ExtensionHost, observers: [@Sendable (HostEvent) -> Void] = [],
        stopped: @escaping @Sendable (RunSummary) async -> Void = { _ in }
    ) {
        self.host = host
        self.observers = observers
        self.stopped = stopped
    }

    public func run() async throws {
        let events = await host.eventStream(replay: true)
        async let observed: Void = observe(events)
        await host.start()
        // Returns on graceful shutdown; throws when the group is cancelled — the host is shut down either way.
        try? await gracefulShutdown()
        let summary = await host.shutdown()
        await observed // the stream ends with the host's log
        await stopped(summary)
    }

    private func observe(_ events: AsyncStream<HostEvent>) async {
        for await event in events {
            for observer in observers { observer(event) }
        }
    }
}

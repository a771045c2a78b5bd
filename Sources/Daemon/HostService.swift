import Foundation
import ServiceLifecycle
import SandglassHost

/// A host as a service: starts its extensions, runs until graceful shutdown (SIGTERM, SIGINT),
/// then shuts it down the way the host always does — every extension killed with reason
/// `hostShutdown` and reaped, `run.end` written, the event log closed; the journal keeps
/// whatever is not yet acknowledged for the next start on the same data directory.
public struct HostService: Service {
    let host: ExtensionHost
    let stopped: @Sendable (RunSummary) async -> Void

    /// A service for `host`; `stopped` is called with the run's summary once it has shut down.
    public init(host: ExtensionHost, stopped: @escaping @Sendable (RunSummary) async -> Void = { _ in }) {
        self.host = host
        self.stopped = stopped
    }

    public func run() async throws {
        await host.start()
        // Returns on graceful shutdown; throws when the group is cancelled — the host is shut down either way.
        try? await gracefulShutdown()
        let summary = await host.shutdown()
        await stopped(summary)
    }
}

/// ``EventObserver`` as a service. Register it before the ``HostService``: the group shuts
/// services down in reverse order, and the observer ends only once the host has shut down.
extension EventObserver: Service {}

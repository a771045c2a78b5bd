import SandglassHost

/// Fixture delays on a host's run clock (``ExtensionHost/fixturePacing``). While
/// the server holds a response, the request in flight does not hold the virtual clock still.
struct RunClockPacing: FixturePacing {
    let schedule: @Sendable (Duration, @escaping @Sendable () -> Void) -> Void

    func after(_ delay: Duration, _ body: @escaping @Sendable () -> Void) {
        schedule(delay, body)
    }
}

extension ExtensionHost {
    /// Pacing for a ``FixtureServer`` whose `delay` and `interval` should pass on this host's run
    /// clock — on the virtual clock, as jumps:
    ///
    /// ```swift
    /// let server = try await FixtureServer.start()
    /// configuration.clock = .virtual
    /// configuration.extensionEnvironment["FEED_URL"] = server.url("/bytes/4096?delay=3600000")
    /// let host = try await ExtensionHost(configuration)
    /// server.pacing = host.fixturePacing     // that download finishes after one virtual hour
    /// ```
    public var fixturePacing: any FixturePacing { RunClockPacing(schedule: serverPacing) }
}

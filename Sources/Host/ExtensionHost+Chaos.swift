/// The hooks of chaos testing, for `SandglassTesting` (which gives them their public form, such
/// as `host.killAt(_:of:target:)`): kills at exact protocol steps, suspension, memory pressure,
/// and what a harness needs around them. Not part of the shipped library's API.
extension ExtensionHost {
    /// Arms a SIGKILL at the next time `step` is reached — by the extension `bundle` (`nil`: any):
    /// of the extension (reason `chaos`), or with `killsHost` of this very process. Returns the
    /// arm's id.
    package func armKill(at step: ProtocolStep, of bundle: String?, killsHost: Bool) async -> UInt64 {
        await core.armStepKill(step, bundle: bundle, killsHost: killsHost)
    }

    /// Removes an armed kill; false when it has fired already.
    package func disarmKill(_ id: UInt64) async -> Bool {
        await core.disarmStepKill(id)
    }

    /// SIGSTOPs the extension's live process; its pid, `nil` when none runs.
    package func suspendProcess(_ bundleIdentifier: String) async -> Int32? {
        await core.suspend(bundleIdentifier)
    }

    /// SIGCONTs the extension's process when it is the suspended one (`pid`; `nil`: whichever).
    package func resumeProcess(_ bundleIdentifier: String, pid: Int32?) async -> Bool {
        await core.resume(bundleIdentifier, pid: pid)
    }

    /// Sets the extension's memory limit from now on; false when no such extension is installed.
    package func changeMemoryLimit(_ bundleIdentifier: String, bytes: Int) async -> Bool {
        await core.setMemoryLimit(bundleIdentifier, bytes: bytes)
    }

    /// Records a harness's own event in the run's log, stamped on the run clock.
    package func recordEvent(_ name: EventName, _ fields: [(String, JSONValue)]) async {
        await core.record(name, fields)
    }

    /// Background tasks of the journal still waiting or running.
    package func countUnfinishedTransfers() async -> Int {
        await core.unfinishedTransfers()
    }

    /// Stops scheduling reloads; downloads and the delivery of their events go on.
    package func stopSchedulingReloads() async {
        await core.stopReloads()
    }

    /// Calls `body` (from any thread) after `delay` of run time, the wait marked as a server's:
    /// a fixture server's `delay` and `interval` paced on this host's run clock.
    package var serverPacing: @Sendable (Duration, @escaping @Sendable () -> Void) -> Void {
        { [core] delay, body in Task { await core.holdForServer(delay, body) } }
    }
}

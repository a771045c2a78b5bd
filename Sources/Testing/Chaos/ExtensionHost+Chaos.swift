import SandglassHost

/// Chaos testing: kills at exact protocol steps, suspension, memory pressure. `sandglass stress`
/// drives these; tests can too.
extension ExtensionHost {
    /// Arms a SIGKILL at the next time `step` is reached — by the extension `bundle` (`nil`: any).
    /// The kill is of the extension (reason `chaos`, detail `chaos at step …`) or, with
    /// `target: .host`, of this very process (`host.killed` is logged first). Returns an id for
    /// ``disarm(_:)``.
    ///
    /// ```swift
    /// let arm = await host.killAt(.completionSent, of: "com.example.downloader.widget")
    /// ```
    @discardableResult
    public func killAt(_ step: ProtocolStep, of bundle: String? = nil, target: ChaosTarget = .extension) async -> UInt64 {
        await armKill(at: step, of: bundle, killsHost: target == .host)
    }

    /// Removes an armed kill; false when it has fired already.
    @discardableResult
    public func disarm(_ id: UInt64) async -> Bool {
        await disarmKill(id)
    }

    /// Freezes the extension's live process (SIGSTOP; logged as `suspended`) and returns its pid,
    /// `nil` when none runs. Its budgets keep running: a frozen activation is killed when its
    /// budget ends, as a suspended app's work is on iOS.
    @discardableResult
    public func suspend(_ bundleIdentifier: String) async -> Int32? {
        await suspendProcess(bundleIdentifier)
    }

    /// Thaws the extension's process (SIGCONT; `resumed`) when it is still the suspended one
    /// (`pid`, as ``suspend(_:)`` returned it; `nil`: whichever is suspended).
    @discardableResult
    public func resume(_ bundleIdentifier: String, pid: Int32? = nil) async -> Bool {
        await resumeProcess(bundleIdentifier, pid: pid)
    }

    /// Sets the extension's memory limit from now on (`memory.limit`): its live process's
    /// cgroup and every later launch. When the process already uses more, it is killed with
    /// reason `memory`. Returns false when no such extension is installed.
    @discardableResult
    public func setMemoryLimit(_ bundleIdentifier: String, bytes: Int) async -> Bool {
        await changeMemoryLimit(bundleIdentifier, bytes: bytes)
    }
}

extension ExtensionHost {
    /// Records a harness's own event in the run's log (`stress.stall`, …), stamped on the run clock.
    public func record(_ name: EventName, _ fields: [(String, JSONValue)] = []) async {
        await recordEvent(name, fields)
    }

    /// Background tasks of the journal still waiting or running (downloads not yet ended).
    public func unfinishedTransfers() async -> Int {
        await countUnfinishedTransfers()
    }

    /// Stops scheduling reloads (widgets keep their timelines); downloads and the delivery of
    /// their events go on. For a harness that lets a run drain before it shuts down.
    public func stopReloads() async {
        await stopSchedulingReloads()
    }
}

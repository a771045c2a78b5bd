import CSandbox
import Foundation

/// Measurements for `sandglass bench`, taken on the host's loop thread so that no task hop is
/// counted. Not API for extension tests.
extension ExtensionHost {
    /// Launches extension `bundleIdentifier` cold and returns spawn → `hello` in nanoseconds
    /// (measured from before the clone to the arrival of the frame); then kills it and waits for
    /// the reaping. `nil` when it could not be launched.
    @_spi(Measurements)
    public func measureColdLaunch(_ bundleIdentifier: String) async -> UInt64? {
        await core.measureColdLaunch(bundleIdentifier)
    }

    /// The deliveries of sessions' events running now: each is forgotten when it ends, so that
    /// a long-running host does not keep one for every relaunch.
    @_spi(Measurements)
    public var runningDeliveries: Int {
        get async { await core.runningDeliveries }
    }

    /// Sends `count` pings one after the other to the warm extension and returns each round trip
    /// in nanoseconds (host write → pong decoded on the loop). With `cpu`, the host's loop thread
    /// and every thread of the extension are pinned to that CPU meanwhile (cross-CPU wake-ups
    /// dominate a round trip on small VMs; pinning compares like with like).
    @_spi(Measurements)
    public func measurePings(_ bundleIdentifier: String, count: Int, cpu: Int? = nil) async -> [UInt64] {
        await core.measurePings(bundleIdentifier, count: count, cpu: cpu)
    }

    /// One refresh of the first widget matching `widget`: an app-intent reload (exempt from the
    /// budget, so never withheld) requested on the loop → its `timeline` event recorded, in
    /// nanoseconds. With `cold`, the extension's process is killed (reason `idle`) and reaped
    /// first, so the refresh includes the launch. `nil` when the reload produced no timeline.
    @_spi(Measurements)
    public func measureRefresh(_ widget: String, cold: Bool) async -> UInt64? {
        await core.measureRefresh(widget, cold: cold)
    }

    /// Closed-loop refreshes of every widget of the extensions `bundleIdentifiers` for `duration`
    /// of wall time: each widget is asked for an app-intent reload again as soon as its timeline
    /// is recorded. Returns the timelines recorded in the window and the window's length in seconds.
    @_spi(Measurements)
    public func measureThroughput(of bundleIdentifiers: Set<String>, for duration: Duration) async -> (timelines: Int, seconds: Double) {
        await core.measureThroughput(bundleIdentifiers, duration: duration)
    }

    /// Launches extension `bundleIdentifier` (if it is not running) and returns its pid once it
    /// said hello; `nil` when it could not be launched.
    @_spi(Measurements)
    public func launch(_ bundleIdentifier: String) async -> Int32? {
        await core.launch(bundleIdentifier)
    }

    /// Calls `body` on the loop, synchronously, for every event recorded from now on whose name
    /// is in `kinds`, with CLOCK_MONOTONIC read as it is recorded. Returns an id for
    /// ``removeStampedObserver(_:)``.
    @_spi(Measurements)
    public func observeStamped(_ kinds: Set<EventName>, _ body: @escaping @Sendable (HostEvent, UInt64) -> Void) async -> UInt64 {
        await core.observeStamped(kinds, body)
    }

    /// Stops an observer of ``observeStamped(_:_:)``.
    @_spi(Measurements)
    public func removeStampedObserver(_ id: UInt64) async {
        await core.removeStampedObserver(id)
    }

    /// The container directory of extension `bundleIdentifier`.
    @_spi(Measurements)
    public func container(of bundleIdentifier: String) async -> String? {
        await core.container(of: bundleIdentifier)
    }

    /// The deadline thread's scheduling (`SCHED_FIFO priority 10`, `nice -20 …`) and how its
    /// deadlines ended so far: killed by it, left to the loop (input the host had not read, or
    /// the process already dead), taken back in time. `nil` without the thread. Read off the
    /// loop: it answers while the loop is held.
    @_spi(Measurements)
    public func deadlineThread() -> (scheduling: String, killed: Int, leftToLoop: Int, takenBack: Int)? {
        guard let killer else { return nil }
        let counts = killer.counts
        return (killer.scheduling, Int(counts.fired), Int(counts.left_for_input + counts.not_sent), Int(counts.cancelled))
    }

    /// Blocks the host's loop thread the next time extension `bundleIdentifier` reaches `step`,
    /// until the returned hold is released or `limit` passes (see ``LoopHold``).
    @_spi(Measurements)
    public func holdLoop(at step: ProtocolStep, of bundleIdentifier: String, limit: Duration) async -> LoopHold {
        let hold = LoopHold(limit: limit)
        await core.armLoopHold(step, bundle: bundleIdentifier, hold: hold)
        return hold
    }
}

extension HostCore {
    func measureColdLaunch(_ id: String) async -> UInt64? {
        guard let ext = supervisor.extensions[id] else { return nil }
        if ext.process != nil {
            supervisor.kill(ext, .idle, detail: "benchmark: next cold launch")
            await supervisor.waitUntilStopped(ext)
        }
        guard case .success(let process) = await supervisor.ensureRunning(ext), let hello = process.helloAt else { return nil }
        let elapsed = hello - process.spawnedAt
        supervisor.kill(process, of: ext, .idle, detail: "benchmark: launch measured")
        await supervisor.waitUntilStopped(ext)
        return elapsed
    }

    func measurePings(_ id: String, count: Int, cpu: Int?) async -> [UInt64] {
        guard let ext = supervisor.extensions[id], case .success(let process) = await supervisor.ensureRunning(ext) else { return [] }
        if let cpu { pin(process.pid, to: cpu) }
        let samples = await withCheckedContinuation { continuation in
            supervisor.pingChain(ext, count: count) { continuation.resume(returning: $0) }
        }
        if cpu != nil { pin(process.pid, to: -1) }
        return samples
    }

    func measureRefresh(_ widget: String, cold: Bool) async -> UInt64? {
        await RefreshProbe(log: log, scheduler: scheduler, supervisor: supervisor, loop: loop).refresh(widget, cold: cold)
    }

    func measureThroughput(_ bundles: Set<String>, duration: Duration) async -> (timelines: Int, seconds: Double) {
        await RefreshProbe(log: log, scheduler: scheduler, supervisor: supervisor, loop: loop).throughput(bundles, duration: duration)
    }

    func launch(_ id: String) async -> Int32? {
        guard let ext = supervisor.extensions[id], case .success(let process) = await supervisor.ensureRunning(ext) else { return nil }
        return process.pid
    }

    func observeStamped(_ kinds: Set<EventName>, _ body: @escaping @Sendable (HostEvent, UInt64) -> Void) -> UInt64 {
        log.observe { event in
            guard let kind = event.kind, kinds.contains(kind) else { return }
            body(event, sg_monotonic_ns())
        }
    }

    func removeStampedObserver(_ id: UInt64) {
        log.removeObserver(id)
    }

    func container(of id: String) -> String? {
        supervisor.extensions[id]?.container
    }

    func deadlineKiller() -> DeadlineKiller? {
        supervisor.killer
    }

    func armLoopHold(_ step: ProtocolStep, bundle: String, hold: LoopHold) {
        chaos.armHold(step, bundle: bundle, hold: hold)
    }

    /// Pins the loop thread and every thread of `pid` to `cpu` (-1: anywhere).
    private func pin(_ pid: Int32, to cpu: Int) {
        _ = sg_set_affinity(0, Int32(cpu))
        for task in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? [] {
            if let tid = Int32(task) { _ = sg_set_affinity(tid, Int32(cpu)) }
        }
    }
}

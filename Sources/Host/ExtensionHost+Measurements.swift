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

    /// Sends `count` pings one after the other to the warm extension and returns each round trip
    /// in nanoseconds (host write → pong decoded on the loop). With `cpu`, the host's loop thread
    /// and every thread of the extension are pinned to that CPU meanwhile (cross-CPU wake-ups
    /// dominate a round trip on small VMs; pinning compares like with like).
    @_spi(Measurements)
    public func measurePings(_ bundleIdentifier: String, count: Int, cpu: Int? = nil) async -> [UInt64] {
        await core.measurePings(bundleIdentifier, count: count, cpu: cpu)
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

    /// Pins the loop thread and every thread of `pid` to `cpu` (-1: anywhere).
    private func pin(_ pid: Int32, to cpu: Int) {
        _ = sg_set_affinity(0, Int32(cpu))
        for task in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? [] {
            if let tid = Int32(task) { _ = sg_set_affinity(tid, Int32(cpu)) }
        }
    }
}

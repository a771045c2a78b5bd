import CSandbox

/// The memory watchdog: where no cgroup limits an extension's memory, its resident size is read
/// every ``SandboxPolicy/watchdogInterval`` and a process over its budget is killed (`memory`).
extension Supervisor {
    /// Reads the resident size of `process` at each interval until it exits or is killed.
    func startWatchdog(_ process: ExtensionProcess, of ext: ManagedExtension) {
        let interval = sandbox.policy.watchdogInterval.nanoseconds
        func arm() {
            process.watchdogTimer = loop.schedule(at: sg_monotonic_ns() + interval) { [unowned self, unowned process] in
                guard process.state != .exiting else { return }
                let rss = process.residentBytes()
                if let rss { process.sampledPeakKiB = max(process.sampledPeakKiB, UInt64(rss) >> 10) }
                if let rss, rss > ext.budgets.memoryBytes {
                    self.kill(
                        process, of: ext, .memory,
                        detail: "resident memory \(rss >> 10) KiB over the \(ext.budgets.memoryBytes >> 10) KiB budget (watchdog)")
                } else {
                    arm()
                }
            }
        }
        arm()
    }

    /// At an activation's reply, where the watchdog measures memory: whether the process's peak
    /// resident size (VmHWM) passed its budget between two readings — a spike of a few
    /// milliseconds, allocated and freed within one interval (or while the loop was late), which
    /// the samples missed. If so it is killed (`memory`) and its answer not taken: jetsam would
    /// have killed it at the spike.
    func killedForPeak(_ process: ExtensionProcess, of ext: ManagedExtension) -> Bool {
        guard process.watchdogTimer != nil else { return false }
        process.samplePeak()
        let peak = Int(clamping: process.sampledPeakKiB) << 10
        guard peak > ext.budgets.memoryBytes else { return false }
        kill(
            process, of: ext, .memory,
            detail:
                "peak resident memory \(peak >> 10) KiB over the \(ext.budgets.memoryBytes >> 10) KiB budget between two readings (watchdog)"
        )
        return true
    }
}

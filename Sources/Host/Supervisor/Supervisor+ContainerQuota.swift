import CSandbox
import SandglassIPC

/// The container quota (``Budgets/containerBytes``, ``Budgets/containerInodes``): this
/// machine's file systems have no project quotas, so the host measures each live extension's
/// container — at its launch, at the start and end of each activation, every
/// ``busyCheckInterval`` while it launches or serves an activation and every
/// ``idleCheckInterval`` while it idles — and kills it with reason `resource` once it holds
/// more. A file is also never larger than the byte quota (RLIMIT_FSIZE). An extension whose
/// container is still over its quota at its next launch is killed again at once.
extension Supervisor {
    /// How often the container of a process that launches or serves an activation is measured
    /// (real time, nanoseconds): what it can write past its quota is what it writes in this time.
    static let busyCheckInterval: UInt64 = 250_000_000
    /// How often the container of an idle process is measured: hundreds of idle extensions
    /// cost the host next to nothing (and the idle budget usually ends the process first).
    static let idleCheckInterval: UInt64 = 5_000_000_000

    /// Measures the extension's container off the loop now; kills the process when it is over
    /// its quota, else measures again after the interval for its state (one walk at a time).
    func checkContainer(_ process: ExtensionProcess, of ext: ManagedExtension) {
        guard let scanner = containerScanner, process.state != .exiting else { return }
        guard !process.containerCheckInFlight else {
            // The walk under way may have passed what was just written: another follows it.
            process.containerRecheck = true
            return
        }
        stopCheckingContainer(process)
        process.containerCheckInFlight = true
        process.containerRecheck = false
        scanner.measure(ext.container, inodeLimit: ext.budgets.containerInodes) { [weak self, weak process] usage in
            guard let self, let process else { return }
            process.containerCheckInFlight = false
            guard process.state != .exiting else { return }
            if let usage, usage.isOver(ext.budgets) { return self.containerOverQuota(process, of: ext, usage) }
            if process.containerRecheck { return self.checkContainer(process, of: ext) }
            guard process.containerTimer == nil else { return }
            let busy = process.state == .launching || !process.pending.isEmpty
            let interval = busy ? Self.busyCheckInterval : Self.idleCheckInterval
            process.containerTimer = self.loop.schedule(at: sg_monotonic_ns() + interval) { [weak self, weak process] in
                guard let self, let process else { return }
                process.containerTimer = nil
                self.checkContainer(process, of: ext)
            }
        }
    }

    /// Stops measuring the container of a process that ended.
    func stopCheckingContainer(_ process: ExtensionProcess) {
        if let timer = process.containerTimer { loop.cancel(timer) }
        process.containerTimer = nil
    }

    private func containerOverQuota(_ process: ExtensionProcess, of ext: ManagedExtension, _ usage: ContainerUsage) {
        let budgets = ext.budgets
        var fields: [(String, JSONValue)] = [("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                                             ("bytes", .int(Int64(usage.bytes))), ("allowedBytes", .int(Int64(budgets.containerBytes))),
                                             ("inodes", .int(Int64(usage.inodes))), ("allowedInodes", .int(Int64(budgets.containerInodes)))]
        if usage.stoppedEarly { fields.append(("countStoppedEarly", true)) }
        if usage.tooDeep { fields.append(("tooDeep", true)) }
        log.emit("container.overQuota", fields)
        let allowed = String(format: "%.1f MiB in %d files", Double(budgets.containerBytes) / Double(1 << 20), budgets.containerInodes)
        kill(process, of: ext, .resource, detail: "its container holds \(usage.summary), over its quota of \(allowed)")
    }
}

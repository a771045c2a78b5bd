import CSandbox
import Foundation
import SandglassIPC

/// The container quota (``Budgets/containerBytes``, ``Budgets/containerInodes``): this
/// machine's file systems have no project quotas, so the host measures each live extension's
/// container, and the container of each app group it shares (each under the same quota: a group
/// is no way round it) — at its spawn and its hello, at the start and end of each activation, every
/// ``busyCheckInterval`` while it launches or serves an activation and every
/// ``idleCheckInterval`` while it idles and runs code — and kills it with reason `resource` once it holds
/// more. A file is also never larger than the byte quota (RLIMIT_FSIZE). An extension whose
/// container is still over its quota at its next launch is killed again at once.
extension Supervisor {
    /// How often the container of a process that launches or serves an activation is measured
    /// (real time, nanoseconds): what it can write past its quota is what it writes in this time.
    static let busyCheckInterval: UInt64 = 250_000_000
    /// How often the containers of idle processes are swept: in one job off the loop, each
    /// measured only when its process wrote or ran since its last measure (``ProcessActivity``),
    /// so that hundreds of idle
    /// extensions cost the host next to nothing.
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
        let containers = quotaContainers(of: ext)
        let inodeLimit = ext.budgets.containerInodes
        scanner.measure(containers.map(\.path), of: process.pid, uid: ext.identity?.uid, inodeLimit: inodeLimit) {
            [weak self, weak process] usages, activity in
            guard let self, let process else { return }
            process.containerCheckInFlight = false
            process.containerActivity = activity
            guard process.state != .exiting else { return }
            if let over = Self.firstOver(usages, of: containers, ext.budgets) {
                return self.containerOverQuota(process, of: ext, over.usage, group: over.group)
            }
            if process.containerRecheck { return self.checkContainer(process, of: ext) }
            guard process.containerTimer == nil else { return }
            guard process.state == .launching || !process.pending.isEmpty else { return self.scheduleContainerSweep() }
            process.containerTimer = self.loop.schedule(at: sg_monotonic_ns() + Self.busyCheckInterval) { [weak self, weak process] in
                guard let self, let process else { return }
                process.containerTimer = nil
                self.checkContainer(process, of: ext)
            }
        }
    }

    /// Sweeps the containers of all idle processes after ``idleCheckInterval``, unless a sweep
    /// is already due.
    private func scheduleContainerSweep() {
        guard containerSweepTimer == nil else { return }
        containerSweepTimer = loop.schedule(at: sg_monotonic_ns() + Self.idleCheckInterval) { [weak self] in
            guard let self else { return }
            self.containerSweepTimer = nil
            self.sweepIdleContainers()
        }
    }

    private func sweepIdleContainers() {
        guard let scanner = containerScanner else { return }
        var idle: [pid_t: (ExtensionProcess, ManagedExtension)] = [:]
        var checks: [ContainerScanner.IdleCheck] = []
        for ext in extensions.values {
            guard let process = ext.process, process.state == .ready, process.pending.isEmpty,
                !process.containerCheckInFlight, process.containerTimer == nil
            else { continue }
            process.containerCheckInFlight = true
            process.containerRecheck = false
            idle[process.pid] = (process, ext)
            checks.append(
                .init(
                    pid: process.pid, uid: ext.identity?.uid, containers: quotaContainers(of: ext).map(\.path),
                    inodeLimit: ext.budgets.containerInodes, activity: process.containerActivity))
        }
        guard !checks.isEmpty else { return }
        scanner.sweep(checks) { [weak self] results in
            guard let self else { return }
            for result in results {
                guard let (process, ext) = idle[result.pid] else { continue }
                process.containerCheckInFlight = false
                guard process.state != .exiting, ext.process === process else { continue }
                if result.measured { process.containerActivity = result.activity }
                if let over = Self.firstOver(result.usages, of: self.quotaContainers(of: ext), ext.budgets) {
                    self.containerOverQuota(process, of: ext, over.usage, group: over.group)
                } else if process.containerRecheck {
                    self.checkContainer(process, of: ext)
                }
            }
            if self.liveProcesses > 0 { self.scheduleContainerSweep() }
        }
    }

    /// The containers the quota covers, in the order they are measured: the extension's own
    /// (`group` nil), then each app group's it shares, by name.
    func quotaContainers(of ext: ManagedExtension) -> [(group: String?, path: String)] {
        [(nil, ext.container)] + ext.appGroups.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The first of `usages` (measured from `containers`, in order) over the quota of `budgets`.
    static func firstOver(
        _ usages: [ContainerUsage?], of containers: [(group: String?, path: String)], _ budgets: Budgets
    ) -> (group: String?, usage: ContainerUsage)? {
        for (usage, container) in zip(usages, containers) {
            if let usage, usage.isOver(budgets) { return (container.group, usage) }
        }
        return nil
    }

    /// Stops measuring the container of a process that ended.
    func stopCheckingContainer(_ process: ExtensionProcess) {
        if let timer = process.containerTimer { loop.cancel(timer) }
        process.containerTimer = nil
    }

    private func containerOverQuota(_ process: ExtensionProcess, of ext: ManagedExtension, _ usage: ContainerUsage, group: String?) {
        let budgets = ext.budgets
        var fields: [(String, JSONValue)] = [
            ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
            ("bytes", .int(Int64(usage.bytes))), ("allowedBytes", .int(Int64(budgets.containerBytes))),
            ("inodes", .int(Int64(usage.inodes))), ("allowedInodes", .int(Int64(budgets.containerInodes)))
        ]
        if usage.stoppedEarly { fields.append(("countStoppedEarly", true)) }
        if usage.tooDeep { fields.append(("tooDeep", true)) }
        if let group { fields.append(("group", .string(group))) }
        log.emit(.containerOverQuota, fields)
        let allowed = String(format: "%.1f MiB in %d files", Double(budgets.containerBytes) / Double(1 << 20), budgets.containerInodes)
        let which = group.map { "the container of app group \($0)" } ?? "its container"
        kill(process, of: ext, .resource, detail: "\(which) holds \(usage.summary), over its quota of \(allowed)")
    }
}

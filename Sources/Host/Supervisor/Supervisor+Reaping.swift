import CSandbox
import Glibc

/// Reaping: a process's pidfd said it ended; its status is read, the kernel's kill (if any)
/// named, its descriptors and timers let go, `exited` recorded, and its lifecycle ends its
/// activations and launch waiters and records a failure it is to blame for.
extension Supervisor {
    /// Reaps `process`, which its pidfd says ended (nothing when it has not, yet).
    func reap(_ process: ExtensionProcess, of ext: ManagedExtension) {
        var status: Int32 = 0
        var cpuMs: UInt64 = 0
        var reapedElsewhere = false
        switch process.control.reap() {
        case .ended(let endStatus, let cpuMilliseconds, _):
            (status, cpuMs) = (endStatus, cpuMilliseconds)
        case .reapedElsewhere:
            // Something else in this process waited for our child (a waitpid(-1) in a library):
            // the status is lost, but the process is gone and everything else must be cleaned up.
            reapedElsewhere = true
            log.emit(
                .hostWarning,
                [
                    ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                    ("warning", "the process was reaped by someone else in the host process; its exit status is unknown")
                ])
        case .failed(let errno):
            log.emit(.hostError, [("error", .string("wait4(\(process.pid)) failed: errno \(errno)"))])
            return
        case .running:
            return
        }
        // Did the deadline thread kill it? Recorded before its exit.
        settleThreadDeadlines(process, of: ext)
        let reapedAt = sg_monotonic_ns()
        tellThrottled(process, of: ext, now: reapedAt, force: true)
        if let timer = process.throttledTimer { loop.cancel(timer) }
        process.throttledTimer = nil
        process.killTarget?.release() // before the pidfd is closed: the thread never signals a reused descriptor
        process.killTarget = nil
        loop.unregister(process.exitFD)
        process.control.close()
        let peakKiB = process.cgroup?.peakBytes().map { UInt64($0) >> 10 } ?? process.sampledPeakKiB
        var record = ExitRecord(pid: process.pid, cpuMilliseconds: cpuMs, peakRSSKiB: peakKiB)
        if reapedElsewhere {
            record.signal = process.killReason != nil ? SIGKILL : nil
        } else if sg_wifsignaled(status) != 0 {
            record.signal = sg_wtermsig(status)
        } else {
            record.status = sg_wexitstatus(status)
        }

        record.killReason = process.killReason
        if record.killReason == nil {
            // Not killed by the host: the kernel's OOM killer (cgroup), RLIMIT_CPU, or its own end.
            let oomKilled = process.cgroup.map { $0.oomKillCount() > process.oomKillsAtSpawn } ?? false
            if let kernel = ExitClassification(record, oomKilled: oomKilled, policy: sandbox.policy, budgets: ext.budgets) {
                record.killReason = kernel.reason
                log.emit(
                    .killed,
                    [
                        ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                        ("reason", .string(kernel.reason.rawValue)), ("detail", .string(kernel.detail))
                    ])
            }
        }
        // Reaped: its timers are to stop, its activations and launch waiters to end, a failure
        // it is to blame for to be recorded — once `exited` is.
        let ended = process.lifecycle.handle(.reaped(record))
        if let timer = process.watchdogTimer { loop.cancel(timer) }
        if let timer = process.channelClosedTimer { loop.cancel(timer) }
        stopCheckingContainer(process)
        process.output.finish()
        process.channel.close()
        closeListener(process)

        var fields: [(String, JSONValue)] = [("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid)))]
        if let s = record.status { fields.append(("status", .int(Int64(s)))) }
        if let s = record.signal { fields.append(("signal", .string(signalName(s)))) }
        if let reason = record.killReason { fields.append(("reason", .string(reason.rawValue))) }
        fields += [
            ("cpuMs", .int(Int64(cpuMs))), ("peakRSSKiB", .int(Int64(peakKiB))),
            ("lifetimeMs", .double(Double((reapedAt - process.spawnedAt) / 1000) / 1000)),
            ("reapedAtNs", .int(Int64(reapedAt)))
        ]
        if process.deniedCount > 0 { fields.append(("denials", .int(Int64(process.deniedCount)))) }
        log.emit(.exited, fields)

        perform(ended, for: process, of: ext)
        endPing(process)
        if ext.process === process { ext.process = nil }
        hooks.processExited(ext, record)
        let exits = exitWaiters
        exitWaiters.removeAll()
        for waiter in exits { waiter.resume() }
    }
}

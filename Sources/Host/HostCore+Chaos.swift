import CSandbox
import Glibc

/// Chaos testing on the loop: kills armed at protocol steps, suspension, memory limits.
extension HostCore {
    func armStepKill(_ step: ProtocolStep, bundle: String?, killsHost: Bool) -> UInt64 {
        chaos.arm(step, bundle: bundle, killsHost: killsHost)
    }

    func disarmStepKill(_ id: UInt64) -> Bool {
        chaos.disarm(id)
    }

    /// SIGSTOPs the extension's live process; its pid, `nil` when none is running.
    func suspend(_ bundle: String) -> Int32? {
        guard let ext = supervisor.extensions[bundle], let process = ext.process, process.killReason == nil else { return nil }
        process.control.signal(SIGSTOP)
        process.isSuspended = true
        log.emit(
            .suspended,
            [
                ("bundle", .string(bundle)), ("pid", .int(Int64(process.pid))),
                ("detail", "SIGSTOP: the process is frozen, as iOS suspends an extension")
            ])
        return process.pid
    }

    /// SIGCONTs the extension's process if it is the one suspended.
    func resume(_ bundle: String, pid: Int32?) -> Bool {
        guard let ext = supervisor.extensions[bundle], let process = ext.process, process.isSuspended,
            pid == nil || process.pid == pid
        else { return false }
        process.isSuspended = false
        process.control.signal(SIGCONT)
        log.emit(.resumed, [("bundle", .string(bundle)), ("pid", .int(Int64(process.pid))), ("detail", "SIGCONT")])
        return true
    }

    /// Changes the extension's memory limit now: its live process's cgroup (or the watchdog's
    /// threshold) and every later launch. A limit below what the process already uses kills
    /// it, reason `memory`, as jetsam does when the limit drops under a footprint.
    func setMemoryLimit(_ bundle: String, bytes: Int) -> Bool {
        guard let ext = supervisor.extensions[bundle] else { return false }
        let previous = ext.budgets.memoryBytes
        ext.budgets.memoryBytes = bytes
        var fields: [(String, JSONValue)] = [
            ("bundle", .string(bundle)), ("bytes", .int(Int64(bytes))),
            ("previousBytes", .int(Int64(previous)))
        ]
        guard let process = ext.process, process.killReason == nil else {
            log.emit(.memoryLimit, fields)
            return true
        }
        fields.insert(("pid", .int(Int64(process.pid))), at: 1)
        var refused: String?
        if let cgroup = process.cgroup {
            do {
                try cgroup.setMemoryLimit(bytes)
            } catch {
                refused = "the kernel refused the limit (\(error))"
            }
        } else if let rss = process.residentBytes(), rss > bytes {
            refused = "resident memory \(rss >> 10) KiB is over the lowered limit"
        }
        log.emit(.memoryLimit, fields)
        if let refused {
            if bytes < previous {
                // Under its footprint: jetsam's answer is the kill.
                supervisor.kill(
                    process, of: ext, .memory, detail: "memory limit lowered to \(bytes >> 10) KiB, under what it uses: \(refused)")
            } else {
                log.emit(
                    .hostError,
                    [("bundle", .string(bundle)), ("error", .string("raising the memory limit to \(bytes >> 10) KiB failed: \(refused)"))])
            }
        }
        return true
    }
}

extension HostCore {
    func record(_ name: EventName, _ fields: [(String, JSONValue)]) {
        log.emit(name, fields)
    }

    func unfinishedTransfers() -> Int {
        (try? journal.unfinishedTasks().count) ?? -1
    }

    func stopReloads() {
        scheduler.stop()
    }

    /// Calls `body` after `delay` of run time, marking the wait as the server's.
    func holdForServer(_ delay: Duration, _ body: @escaping @Sendable () -> Void) {
        let hold = clock.holdForServer()
        clock.schedule(after: delay) {
            hold.release()
            body()
        }
    }
}

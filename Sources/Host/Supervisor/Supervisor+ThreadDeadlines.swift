/// Budget deadlines on the deadline thread: armed beside the loop's timer at each activation's
/// start, taken back at its end; a kill the thread made first is the one recorded.
extension Supervisor {
    /// Arms an activation budget's end on the deadline thread, which SIGKILLs the process at `due` unless it
    /// is taken back first; the caller arms the loop's timer for the same instant.
    func armOnThread(_ process: ExtensionProcess, due: UInt64, detail: String) -> DeadlineKiller.ID? {
        guard let killer, let target = process.killTarget, let id = killer.arm(target, at: due) else { return nil }
        process.threadDeadlines[id] = ExtensionProcess.ThreadDeadline(due: due, detail: detail)
        return id
    }

    /// Takes back the thread's deadline of an activation that ended. True when the
    /// thread had killed the process first: that kill is then recorded, and the activation ends
    /// killed (`timeBudget`) when the process is reaped, its late answer ignored.
    func takeBack(_ id: DeadlineKiller.ID?, from process: ExtensionProcess, of ext: ManagedExtension) -> Bool {
        if let id, let killer, let deadline = process.threadDeadlines.removeValue(forKey: id),
            case .killed(let at) = killer.settle(id)
        {
            kill(process, of: ext, .timeBudget, detail: deadline.detail, deadline: deadline.due, killedAt: at)
        }
        return process.threadKilledAt != nil
    }

    /// Settles every deadline of `process` still armed on the thread. When the thread killed it,
    /// records that kill (`timeBudget`, at the instant the thread sent it) and returns true.
    @discardableResult
    func settleThreadDeadlines(_ process: ExtensionProcess, of ext: ManagedExtension) -> Bool {
        guard let killer, !process.threadDeadlines.isEmpty else { return false }
        var first: (deadline: ExtensionProcess.ThreadDeadline, at: UInt64)?
        for (id, deadline) in process.threadDeadlines {
            if case .killed(let at) = killer.settle(id), at < first?.at ?? .max { first = (deadline, at) }
        }
        process.threadDeadlines.removeAll()
        guard let first else { return false }
        kill(process, of: ext, .timeBudget, detail: first.deadline.detail, deadline: first.deadline.due, killedAt: first.at)
        return true
    }
}

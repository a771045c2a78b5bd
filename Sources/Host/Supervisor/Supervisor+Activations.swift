import CSandbox
import SandglassIPC

/// Activations: a request sent under its budget, and its end (reply, error, completion, kill or
/// death), each recorded as `activation.start` and `activation.end`.
extension Supervisor {
    /// Runs one activation: launches the extension if it is not running, sends the request,
    /// and waits for the reply within the activation's budget (over it: SIGKILL, `timeBudget`).
    ///
    /// A `backgroundEvents` activation names its `session`; it is a conversation the delivery of
    /// background events carries on (`started` gives it the request id and the process) and ends
    /// with ``complete(_:_:_:)``.
    ///
    /// A widget's `configuration` (its intent's parameters, JSON) goes just before the request,
    /// to an extension that speaks protocol 4.1 or later (``ProtocolVersion/widgetConfigurations``).
    func activate(
        _ ext: ManagedExtension, _ kind: ActivationKind, context: ActivationContext? = nil,
        configuration: [UInt8] = [],
        session: String? = nil, started: ((RequestID, ExtensionProcess) -> Void)? = nil
    ) async -> ActivationOutcome {
        var process: ExtensionProcess
        while true {
            switch await ensureRunning(ext) {
            case .success(let p): process = p
            case .failure(let failure): return failure.outcome
            }
            // Ready when ensureRunning returned, but an idle kill may have come first: a launch
            // whose waiters resume after its idle timer fired (a starved loop). Launch it again.
            // (Killed for another reason, as by chaos at its hello, it goes ahead and ends killed.)
            let actions = process.lifecycle.handle(.activationStarting)
            if actions.contains(where: { if case .relaunch = $0 { true } else { false } }) { continue }
            perform(actions, for: process, of: ext)
            break
        }
        let id = RequestID(nextRequest)
        nextRequest += 1
        process.issued(id)
        let budget = kind.budget(in: ext.budgets)
        let message: Message
        switch kind {
        case .placeholder: message = .placeholderRequest(id, context!)
        case .snapshot: message = .snapshotRequest(id, context!)
        case .timeline: message = .timelineRequest(id, context!)
        case .performUpdate: message = .performUpdateRequest(id)
        case .backgroundEvents: message = .backgroundEventsRequest(id, identifier: session ?? "")
        }
        process.messageBudget.activationStarted()
        let busy = clock.holdBusy()
        let startedHook = started
        let started = sg_monotonic_ns()
        var fields: [(String, JSONValue)] = [
            ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
            ("activation", .int(Int64(id.rawValue))), ("kind", .string(kind.rawValue))
        ]
        if let context {
            fields += [("widget", .string(context.kind)), ("family", .string(context.family))]
            if context.isPreview { fields.append(("isPreview", true)) }
        }
        if let session { fields.append(("session", .string(session))) }
        fields.append(("budgetMs", .double(budget.milliseconds)))
        log.emit(.activationStart, fields)
        return await withCheckedContinuation { continuation in
            // After a possible executor hop the process may have died meanwhile.
            if let outcome = process.exitOutcome {
                fields.append(("outcome", .string(outcome.label)))
                log.emit(.activationEnd, fields.filter { $0.0 != "budgetMs" })
                busy.release()
                continuation.resume(returning: outcome)
                return
            }
            let due = started + budget.nanoseconds
            let detail = "\(kind.rawValue) ran over its \(format(budget)) budget"
            // The thread kills at the deadline; the loop's timer records that kill, or kills itself.
            let threadDeadline = armOnThread(process, due: due, detail: detail)
            let deadline = loop.schedule(at: due) { [unowned self, unowned process] in
                self.kill(process, of: ext, .timeBudget, detail: detail, deadline: due)
            }
            drive(
                process, of: ext,
                .activationStarted(
                    id,
                    ExtensionProcess.Pending(
                        id: id, kind: kind, widgetKind: context?.kind, session: session, started: started, budget: budget,
                        deadline: deadline, threadDeadline: threadDeadline, continuation: continuation, busy: busy)))
            startedHook?(id, process)
            checkContainer(process, of: ext) // and every 250 ms while the activation lasts
            if let context, !configuration.isEmpty, let hello = process.hello,
                hello.version >= .widgetConfigurations
            {
                let payload = WidgetConfigurationPayload(kind: context.kind, family: context.family, intent: configuration)
                process.channel.send(.widgetConfiguration(id, payload))
            }
            if !process.channel.send(message) {
                protocolViolation(process, of: ext, "stopped reading its IPC channel (\(process.channel.pendingOutput) bytes unread)")
            } else {
                hooks.stepReached(.requestWritten, ext, process)
            }
        }
    }

    /// Ends the pending activation `id` of `process` with `outcome`, unless the deadline thread
    /// killed the process first (the activation then ends killed when it is reaped).
    func end(_ id: RequestID, of process: ExtensionProcess, ext: ManagedExtension, _ outcome: ActivationOutcome) {
        guard let pending = process.pending[id] else { return }
        if takeBack(pending.threadDeadline, from: process, of: ext) { return }
        drive(process, of: ext, .activationEnded(id, outcome, now: clock.now))
    }

    /// Records the end of an activation the lifecycle let go of, and resumes its caller.
    func finish(_ pending: ExtensionProcess.Pending, of process: ExtensionProcess, ext: ManagedExtension, _ outcome: ActivationOutcome) {
        loop.cancel(pending.deadline)
        _ = takeBack(pending.threadDeadline, from: process, of: ext) // already settled on the paths that end it in time
        tellThrottled(process, of: ext, now: sg_monotonic_ns(), force: true)
        let ms = Double(sg_monotonic_ns() - pending.started) / 1e6
        var fields: [(String, JSONValue)] = [
            ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
            ("activation", .int(Int64(pending.id.rawValue))), ("kind", .string(pending.kind.rawValue))
        ]
        if let widget = pending.widgetKind { fields.append(("widget", .string(widget))) }
        if let session = pending.session { fields.append(("session", .string(session))) }
        fields += [("outcome", .string(outcome.label)), ("ms", .double((ms * 1000).rounded() / 1000))]
        switch outcome {
        case .killed(let reason): fields.append(("reason", .string(reason.rawValue)))
        case .failed(let reason): fields.append(("error", .string(reason)))
        case .updateResult(let result): fields.append(("result", .string("\(result)")))
        case .entry(let entry): fields.append(("entry", .raw(entryJSON(entry))))
        case .eventsFinished(let count): fields.append(("events", .int(Int64(count))))
        case .timeline(let timeline):
            // Part of the activation: the views the extension evaluated before it answered.
            let views = timeline.entries.compactMap(\.view)
            if !views.isEmpty {
                fields.append(("renderMs", .double((Double(views.reduce(UInt64(0)) { $0 &+ $1.nanoseconds }) / 1e3).rounded() / 1e3)))
            }
        case .declined: break
        }
        log.emit(.activationEnd, fields)
        if outcome.label == "ok", ext.crashLoop.recordSuccess() {
            log.emit(
                .backoffCleared,
                [
                    ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                    ("detail", .string("\(pending.kind.rawValue) answered: the count of failures in a row starts over"))
                ])
        }
        if process.cgroup == nil && process.state != .exiting { process.samplePeak() }
        checkContainer(process, of: ext)
        pending.busy.release()
        pending.continuation.resume(returning: outcome)
    }

    /// Ends the pending activation `id` of the extension's live process with `outcome` (when it
    /// is still pending: a kill or an exit may have ended it first).
    func complete(_ ext: ManagedExtension, _ id: RequestID, _ outcome: ActivationOutcome) {
        guard let process = ext.process else { return }
        end(id, of: process, ext: ext, outcome)
    }
}

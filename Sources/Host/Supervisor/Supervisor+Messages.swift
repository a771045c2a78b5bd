import CSandbox
import SandglassIPC

/// Messages from an extension: each checked against its state and its message budget, then
/// dispatched (replies to their activations, logs to the event log, the rest to the host's
/// other parts); anything out of place is a protocol violation and kills it.
extension Supervisor {
    func handle(_ event: Channel.Event, from process: ExtensionProcess, of ext: ManagedExtension) {
        switch event {
        case .message(let message):
            handle(message, from: process, of: ext)
        case .violation(let error):
            protocolViolation(process, of: ext, error.description)
        case .overflowed(let pending):
            // Whatever was queued for it — an answer, events, an inline request's data — the host
            // holds no more than the channel's limit for a process that does not read.
            kill(
                process, of: ext, .resource,
                detail: "did not read its IPC channel: \(pending) bytes unread, over the \(process.channel.maximumOutbound >> 20) MiB limit"
            )
        case .closed:
            process.killTarget?.forgetChannel()
            process.channel.close()
            guard process.state != .exiting else { return }
            // A dying process closes its descriptors before its pidfd says it exited (a kernel
            // OOM kill, a crash): wait a moment for the pidfd. A process still alive then, without
            // its channel, can do nothing useful and is killed.
            process.channelClosedTimer = loop.schedule(at: sg_monotonic_ns() + 200_000_000) { [unowned self, unowned process] in
                process.channelClosedTimer = nil
                guard process.state != .exiting else { return }
                self.protocolViolation(process, of: ext, "closed its IPC channel while still running")
            }
        }
    }

    func handle(_ message: Message, from process: ExtensionProcess, of ext: ManagedExtension) {
        guard process.state != .exiting else { return }
        if process.state == .launching {
            guard case .hello(let hello) = message else {
                return protocolViolation(process, of: ext, "sent \(message.type) before hello")
            }
            return handleHello(hello, from: process, of: ext)
        }
        guard admit(message, from: process, of: ext) else { return }
        switch message {
        case .hello:
            protocolViolation(process, of: ext, "sent a second hello")
        case .entryReply(let id, let entry):
            reply(id, .entry(entry), accepts: [.placeholder, .snapshot], message, process, ext)
        case .timelineReply(let id, let timeline):
            reply(id, .timeline(timeline), accepts: [.timeline], message, process, ext)
        case .updateResultReply(let id, let result):
            reply(id, .updateResult(result), accepts: [.performUpdate], message, process, ext)
        case .error(let report):
            if let id = report.requestID {
                guard let pending = process.pending[id] else {
                    return protocolViolation(process, of: ext, "sent an error for request \(id), which is not pending")
                }
                end(
                    pending.id, of: process, ext: ext,
                    .failed("\(report.code): \(MessageBudget.cut(report.message, to: settings.messageLimits.logMessageBytes))"))
            } else {
                let text = MessageBudget.cut(report.message, to: settings.messageLimits.logMessageBytes)
                log.emit(
                    .extensionError,
                    [
                        ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                        ("code", .string("\(report.code)")), ("message", .string(text))
                    ])
            }
        case .reloadTimelines(let kind):
            hooks.reloadRequested(ext, kind)
        case .reloadAllTimelines:
            hooks.reloadRequested(ext, nil)
        case .log(let record):
            let text = MessageBudget.cut(record.message, to: settings.messageLimits.logMessageBytes)
            log.emit(
                .log,
                [
                    ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                    ("stream", "sdk"), ("level", .string(record.level.description)), ("message", .string(text))
                ])
        case .osLog(let record):
            // Logger / os_log: the same event as the SDK's lines, with the logger's subsystem and category.
            let limit = settings.messageLimits.logMessageBytes
            log.emit(
                .log,
                [
                    ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                    ("stream", "oslog"), ("level", .string(record.level.description)),
                    ("message", .string(MessageBudget.cut(record.message, to: limit))),
                    ("subsystem", .string(MessageBudget.cut(record.subsystem, to: MessageLimits.loggerNameBytes))),
                    ("category", .string(MessageBudget.cut(record.category, to: MessageLimits.loggerNameBytes)))
                ])
        case .diagnostic(var report):
            // Its text counts toward the log's minute like a log message's; past it, left out.
            let bytes = JSONValue.writtenBytes(MessageLimits.field(report.message))
            if !process.messageBudget.charge(logBytes: bytes, now: sg_monotonic_ns()) {
                report.message = MessageBudget.cut(report.message, to: 0)
            }
            hooks.diagnosticReceived(ext, process, report)
        case .pong(let n):
            pong(n, from: process, of: ext)
        case .attachSession, .invalidateSession, .backgroundEventsReply, .eventHandled, .eventsFinished,
            .createTask, .resumeTask, .cancelTask, .getTasks, .locationRequest, .currentConfigurationsRequest:
            hooks.extensionMessage(ext, process, message)
        case .welcome, .placeholderRequest, .snapshotRequest, .timelineRequest, .performUpdateRequest, .ping,
            .sessionAttached, .sessionInvalidated, .backgroundEventsRequest, .allEventsDelivered, .taskCreated,
            .taskList, .taskProgress, .taskResponse, .taskData, .downloadFinished, .taskCompleted,
            .locationAuthorization, .locationUpdate, .locationFailure, .widgetConfiguration, .currentConfigurations:
            protocolViolation(process, of: ext, "sent \(message.type), which only the host sends")
        }
    }

    /// Whether `message` is within the process's message budget. Dropped messages are counted
    /// and told in `messages.throttled` about once a second; a flood of requests kills the
    /// process (`resource`).
    private func admit(_ message: Message, from process: ExtensionProcess, of ext: ManagedExtension) -> Bool {
        let now = sg_monotonic_ns()
        // What its frames took on the wire since the last message: bytes of every kind count.
        let fresh = process.channel.bytesReceived - process.bytesCharged
        process.bytesCharged = process.channel.bytesReceived
        if case .kill(let why) = process.messageBudget.received(fresh, now: now) {
            kill(process, of: ext, .resource, detail: why)
            return false
        }
        let kind = MessageBudget.kind(of: message)
        // What a text costs is what the log writes of it: cut, then escaped.
        let limit = settings.messageLimits.logMessageBytes
        func written(_ text: String, cutTo bytes: Int = limit) -> Int { JSONValue.writtenBytes(MessageBudget.cut(text, to: bytes)) }
        var bytes = 0
        switch message {
        case .log(let record): bytes = written(record.message)
        case .osLog(let record):
            bytes =
                written(record.message) + written(record.subsystem, cutTo: MessageLimits.loggerNameBytes)
                + written(record.category, cutTo: MessageLimits.loggerNameBytes)
        case .error(let report): bytes = written(report.message)
        default: break
        }
        let verdict = process.messageBudget.admit(kind, bytes: bytes, now: now)
        tellThrottled(process, of: ext, now: now)
        switch verdict {
        case .accept:
            return true
        case .drop:
            return false
        case .kill(let why):
            kill(process, of: ext, .resource, detail: why)
            return false
        }
    }

    /// Whether the event `name` with `fields`, caused by a request of `process`, fits its log
    /// budget: its line's bytes charged to the minute's and the activation's; past it the drop
    /// is counted (and told in `messages.throttled`).
    func admitsEvent(_ name: EventName, _ fields: [(String, JSONValue)], for process: ExtensionProcess, of ext: ManagedExtension) -> Bool {
        let bytes = HostEvent(t: 0, name: name.rawValue, fields: fields).jsonLine.utf8.count
        let now = sg_monotonic_ns()
        guard process.messageBudget.admit(.log, bytes: bytes, now: now) == .accept else {
            tellThrottledWhenDue(process, of: ext, now: now)
            return false
        }
        return true
    }

    /// Records the event `name`, which a frame of `process` caused and which changes nothing the
    /// host keeps (a refusal, a call ignored), if it fits the process's log budget as its own log
    /// lines must: a frame a second at the request rate would otherwise write 40 times the
    /// budget in lines of a session identifier's 256 bytes, each control character six.
    func emitCharged(_ name: EventName, _ fields: [(String, JSONValue)], for process: ExtensionProcess, of ext: ManagedExtension) {
        if admitsEvent(name, fields, for: process, of: ext) { log.emit(name, fields) }
    }

    /// Records what the message budget dropped or coalesced since it was last told.
    /// What is dropped and not yet told is told when it is due even if the process sends
    /// nothing more: a flood that ends within its first second is told a second later, not at
    /// the end of its activation.
    func tellThrottled(_ process: ExtensionProcess, of ext: ManagedExtension, now: UInt64, force: Bool = false) {
        defer { if !force { tellThrottledWhenDue(process, of: ext, now: now) } }
        for dropped in process.messageBudget.takeDropped(now: now, force: force) {
            var fields: [(String, JSONValue)] = [
                ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                ("kind", .string(dropped.kind.rawValue)), ("messages", .int(Int64(dropped.messages)))
            ]
            if dropped.kind == .log { fields.append(("bytes", .int(Int64(dropped.bytes)))) }
            fields.append(("detail", .string(dropped.detail)))
            log.emit(.messagesThrottled, fields)
        }
    }

    /// Arms the timer that tells what was dropped and not yet told when it is due (once).
    private func tellThrottledWhenDue(_ process: ExtensionProcess, of ext: ManagedExtension, now: UInt64) {
        guard process.throttledTimer == nil, process.state != .exiting, let due = process.messageBudget.untoldDue else { return }
        process.throttledTimer = loop.schedule(at: max(due, now)) { [weak self, weak process, weak ext] in
            guard let self, let process, let ext else { return }
            process.throttledTimer = nil
            guard process.state != .exiting else { return }
            self.tellThrottled(process, of: ext, now: sg_monotonic_ns())
        }
    }

    private func reply(
        _ id: RequestID, _ outcome: ActivationOutcome, accepts kinds: Set<ActivationKind>,
        _ message: Message, _ process: ExtensionProcess, _ ext: ManagedExtension
    ) {
        guard let pending = process.pending[id] else {
            return protocolViolation(process, of: ext, "sent \(message.type) for request \(id), which is not pending")
        }
        guard kinds.contains(pending.kind) else {
            return protocolViolation(process, of: ext, "answered the \(pending.kind.rawValue) request \(id) with \(message.type)")
        }
        hooks.stepReached(.replyRead, ext, process)
        if killedForPeak(process, of: ext) { return }
        end(id, of: process, ext: ext, outcome)
    }

    func protocolViolation(_ process: ExtensionProcess, of ext: ManagedExtension, _ detail: String) {
        guard process.state != .exiting else { return }
        log.emit(.protocolViolation, [("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))), ("error", .string(detail))])
        kill(process, of: ext, .protocolViolation, detail: detail)
    }
}

import CSandbox
import Foundation
import SandglassIPC

/// The network side of the system for extensions: background sessions (attach, conflicts,
/// tasks, invalidation), the transfer service, the delivery of their events, and inline
/// requests. Routes the extension's network messages. Confined to the host's loop thread.
final class NetworkService {
    let registry: SessionRegistry
    let transfers: TransferService
    let delivery: EventDelivery
    let inline: InlineRequests
    /// The HTTP transport of both, and its thread: shut down with the host.
    let transport: HTTPTransport
    private let journal: Journal
    private let supervisor: Supervisor
    private let log: EventLog

    init(
        journal: Journal, registry: SessionRegistry, transfers: TransferService, delivery: EventDelivery, inline: InlineRequests,
        transport: HTTPTransport, supervisor: Supervisor, log: EventLog
    ) {
        self.transport = transport
        self.journal = journal
        self.registry = registry
        self.transfers = transfers
        self.delivery = delivery
        self.inline = inline
        self.supervisor = supervisor
        self.log = log
        transfers.eventsComing = { [unowned delivery] app, session, bundle in
            delivery.eventsComing(app: app, session: session, bundle: bundle)
        }
        transfers.eventsPending = { [unowned delivery] app, session, bundle in
            delivery.eventsPending(app: app, session: session, bundle: bundle)
        }
        transfers.listening = { [unowned self] task in self.holder(of: task) != nil }
        transfers.progressed = { [unowned self] task in
            guard let process = self.holder(of: task) else { return }
            process.channel.send(
                .taskProgress(
                    session: task.session, taskIdentifier: task.taskIdentifier,
                    received: task.bytesReceived, expected: task.bytesExpected))
        }
    }

    /// The running process that holds `task`'s session, which is told of its progress.
    private func holder(of task: TaskRecord) -> ExtensionProcess? {
        let key = SessionRegistry.Key(app: task.app, identifier: task.session)
        guard let holder = registry.holders[key], let ext = supervisor.extensions[holder.bundle], let process = ext.process,
            process.pid == holder.pid
        else { return nil }
        return process
    }

    /// Handles a network message of `process`; false when it is not one.
    func handle(_ message: Message, from process: ExtensionProcess, of ext: ManagedExtension) -> Bool {
        supervisor.loop.assertInLoop()
        let app = ext.app.bundleIdentifier
        switch message {
        case .attachSession(let configuration):
            attach(configuration, process: process, ext: ext)
        case .invalidateSession(let identifier, let cancelTasks):
            let key = SessionRegistry.Key(app: app, identifier: identifier)
            // A session is its holder's: another process of the app cannot end it, nor drop its events.
            guard holds(identifier, app: app, process) else { break }
            registry.detach(key, pid: process.pid)
            if cancelTasks {
                for task in (try? journal.liveTasks(app: app, session: identifier)) ?? [] { try? transfers.cancel(task) }
                // invalidateAndCancel: the session is gone, and so are the events it had waiting.
                transfers.dropEvents(app: app, session: identifier)
            }
            log.emit(
                .sessionInvalidated,
                [
                    ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                    ("session", HelloLimits.logged(identifier)), ("cancelTasks", .bool(cancelTasks)), ("by", "extension")
                ])
        case .createTask(let id, let payload):
            // What the host keeps of the request: its size in a frame.
            let size = Frame.encode(.createTask(RequestID(0), payload)).count
            if let refusal = RequestPolicy.refusal(of: payload.request) ?? sessionFull(app: app, payload, size: size)
                ?? inlineFull(pid: process.pid, payload, size: size)
            {
                supervisor.emitCharged(
                    .taskRefused,
                    [
                        ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                        ("session", HelloLimits.logged(payload.session)), ("detail", .string(refusal))
                    ], for: process, of: ext)
                process.channel.send(.error(ErrorReport(requestID: id, code: .unsupportedRequest, message: refusal)))
                return true
            }
            // Its URL and description go into the log: charged to the process's log budget, as written.
            let textBytes =
                JSONValue.writtenBytes(MessageLimits.field(payload.request.url))
                + JSONValue.writtenBytes(MessageLimits.field(payload.taskDescription ?? ""))
            let fieldBytes = process.messageBudget.eventTextLimit(for: textBytes, now: sg_monotonic_ns())
            if payload.session.isEmpty {
                guard inline.count(of: process.pid) < supervisor.settings.messageLimits.inlineTasks else {
                    supervisor.kill(
                        process, of: ext, .resource,
                        detail: "created more than \(supervisor.settings.messageLimits.inlineTasks) inline tasks that have not ended")
                    return true
                }
                let task = inline.create(payload, size: size, fieldBytes: fieldBytes, ext: ext, pid: process.pid)
                process.channel.send(.taskCreated(id, taskIdentifier: task))
            } else {
                let key = SessionRegistry.Key(app: app, identifier: payload.session)
                guard registry.isHeld(key, by: process.pid) else {
                    process.channel.send(
                        .error(
                            ErrorReport(
                                requestID: id, code: .unsupportedRequest,
                                message: "session \(payload.session) is not attached by this process; create the URLSession first")))
                    return true
                }
                do {
                    let task = try transfers.create(app: app, bundle: ext.identifier, pid: process.pid, payload, fieldBytes: fieldBytes)
                    process.channel.send(.taskCreated(id, taskIdentifier: task.taskIdentifier))
                } catch {
                    process.channel.send(.error(ErrorReport(requestID: id, code: .other, message: "could not record the task: \(error)")))
                }
            }
        case .resumeTask(let session, let taskIdentifier):
            if session.isEmpty {
                inline.resume(taskIdentifier, ext: ext, pid: process.pid)
            } else if holds(session, app: app, process),
                let task = try? journal.task(app: app, session: session, taskIdentifier: taskIdentifier)
            {
                try? transfers.resume(task)
            }
        case .cancelTask(let session, let taskIdentifier):
            if session.isEmpty {
                inline.cancel(taskIdentifier, pid: process.pid)
            } else if holds(session, app: app, process),
                let task = try? journal.task(app: app, session: session, taskIdentifier: taskIdentifier)
            {
                try? transfers.cancel(task)
            }
        case .getTasks(let id, let session):
            // Only the holder is told of a session's tasks (their requests carry its headers).
            let held = !session.isEmpty && holds(session, app: app, process)
            let records = held ? (try? journal.liveTasks(app: app, session: session)) ?? [] : []
            let tasks = TaskRecord.snapshots(of: records, for: process)
            process.channel.send(.taskList(id, tasks))
        case .backgroundEventsReply(let id, let accepted):
            delivery.replied(id, accepted: accepted, ext: ext, pid: process.pid)
        case .eventHandled(let identifier, let eventID, let delegateStartedNs):
            delivery.handled(
                SessionRegistry.Key(app: app, identifier: identifier), eventID: eventID,
                delegateStartedNs: delegateStartedNs, ext: ext, pid: process.pid)
        case .eventsFinished(let identifier):
            delivery.finished(SessionRegistry.Key(app: app, identifier: identifier), ext: ext, pid: process.pid)
        default:
            return false
        }
        return true
    }

    /// Why a background session cannot take `payload`'s task: it holds as many tasks not ended,
    /// or as many bytes of their requests, as ``MessageLimits`` allows.
    private func sessionFull(app: String, _ payload: TaskRequestPayload, size adding: Int) -> String? {
        guard !payload.session.isEmpty, let load = try? journal.liveTaskLoad(app: app, session: payload.session) else { return nil }
        let limits = supervisor.settings.messageLimits
        if load.count >= limits.sessionTasks {
            return
                "the session holds \(load.count) tasks not completed or with events not yet taken, its limit; resume or cancel some, or take their events, first"
        }
        if load.bytes + adding > limits.sessionTaskBytes {
            return
                "the session's tasks not completed or with events not yet taken would hold \(load.bytes + adding) bytes of requests, over its limit of \(limits.sessionTaskBytes >> 10) KiB (the list of its tasks must fit in one frame); resume or cancel some, or take their events, first"
        }
        return nil
    }

    /// Why process `pid` cannot take `payload`'s inline task: its inline tasks not ended would
    /// hold more bytes of requests than ``MessageLimits/inlineTaskBytes``.
    private func inlineFull(pid: Int32, _ payload: TaskRequestPayload, size: Int) -> String? {
        guard payload.session.isEmpty else { return nil }
        let limit = supervisor.settings.messageLimits.inlineTaskBytes
        let holding = inline.bytes(of: pid) + size
        guard holding > limit else { return nil }
        return
            "the process's inline tasks not ended would hold \(holding) bytes of requests, over its limit of \(limit >> 10) KiB; let some end first"
    }

    /// Whether `process` holds session `identifier` of `app`: only the holder lists, cancels,
    /// resumes or invalidates its tasks.
    private func holds(_ identifier: String, app: String, _ process: ExtensionProcess) -> Bool {
        registry.isHeld(SessionRegistry.Key(app: app, identifier: identifier), by: process.pid)
    }

    private func attach(_ configuration: SessionConfigurationPayload, process: ExtensionProcess, ext: ManagedExtension) {
        // The identifier names the session in the journal, the registry and every event.
        let length = configuration.identifier.utf8.count
        guard length > 0, length <= HelloLimits.nameBytes else {
            return refuse(
                configuration, process: process, ext: ext, code: -1, reason: "badIdentifier",
                "A background URLSession's identifier must be 1 to \(HelloLimits.nameBytes) bytes; this one has \(length)")
        }
        // A NUL would end the name in C strings: "a\0b" must not be another name for "a".
        guard !configuration.identifier.utf8.contains(0) else {
            return refuse(
                configuration, process: process, ext: ext, code: -1, reason: "badIdentifier",
                "A background URLSession's identifier must not contain a NUL character")
        }
        if let shared = configuration.sharedContainerIdentifier, shared.utf8.count > HelloLimits.nameBytes || shared.utf8.contains(0) {
            return refuse(
                configuration, process: process, ext: ext, code: -1, reason: "badIdentifier",
                "A sharedContainerIdentifier must be at most \(HelloLimits.nameBytes) bytes, without NUL; this one has \(shared.utf8.count)"
            )
        }
        let key = SessionRegistry.Key(app: ext.app.bundleIdentifier, identifier: configuration.identifier)
        let record = SessionRecord(
            app: key.app, identifier: key.identifier, bundle: ext.identifier,
            sendsLaunchEvents: configuration.sessionSendsLaunchEvents, isDiscretionary: configuration.isDiscretionary,
            requestTimeout: HTTPAttempt.requestTimeout(seconds: configuration.timeoutIntervalForRequest),
            resourceTimeout: HTTPAttempt.resourceTimeout(seconds: configuration.timeoutIntervalForResource),
            sharedContainer: configuration.sharedContainerIdentifier)
        // The session was offered to this process with its events: this confirms it, unanswered.
        if delivery.confirm(key, pid: process.pid) {
            try? journal.saveSession(record)
            return
        }
        // A session the journal does not hold yet: within the app's bound on sessions.
        if (try? journal.session(app: key.app, identifier: key.identifier)) == nil {
            let attached = Set(registry.holders.keys.filter { $0.app == key.app }.map(\.identifier))
            let limit = supervisor.settings.messageLimits.sessionsPerApp
            if let count = try? journal.sessionCount(app: key.app, forgettingIdleBut: attached), count >= limit {
                return refuse(
                    configuration, process: process, ext: ext, code: -1, reason: "tooManySessions",
                    "The app holds \(count) background sessions with tasks or events, or attached now, its limit of \(limit); finish some first"
                )
            }
        }
        if let holder = registry.attach(key, bundle: ext.identifier, pid: process.pid) {
            return refuse(
                configuration, process: process, ext: ext, code: -996, reason: "sessionConflict",
                "A background URLSession with identifier \(configuration.identifier) already exists (held by pid \(holder.pid) of \(holder.bundle))",
                [("holder", .int(Int64(holder.pid))), ("holderBundle", .string(holder.bundle))])
        }
        try? journal.saveSession(record)
        // Ended tasks whose events wait come too: their delegate calls carry them, with their
        // request and description, in a process that never saw them (a cold relaunch).
        let tasks = (try? journal.attachableTasks(app: key.app, session: key.identifier)) ?? []
        delivery.sendAttached(key, tasks: tasks, to: process, of: ext, offered: false)
        delivery.attached(key, ext: ext, pid: process.pid)
    }

    /// Invalidates the session `configuration` asked for, with `message` for its delegate, and
    /// records why (`session.invalidated`, `reason`), within the process's log budget.
    private func refuse(
        _ configuration: SessionConfigurationPayload, process: ExtensionProcess, ext: ManagedExtension, code: Int, reason: String,
        _ message: String, _ fields: [(String, JSONValue)] = []
    ) {
        process.channel.send(
            .sessionInvalidated(identifier: configuration.identifier, error: TaskErrorPayload(code: code, message: message)))
        supervisor.emitCharged(
            .sessionInvalidated,
            [
                ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                ("session", HelloLimits.logged(configuration.identifier)),
                ("reason", .string(reason))
            ] + fields, for: process, of: ext)
    }

    /// A process ended: its sessions are free again, its inline requests die.
    func processEnded(_ pid: Int32, ext: ManagedExtension) {
        supervisor.loop.assertInLoop()
        registry.processEnded(pid)
        inline.processEnded(pid, bundle: ext.identifier)
    }

    /// An extension was installed: deliver what the journal holds for it.
    func installed(_ ext: ManagedExtension) {
        supervisor.loop.assertInLoop()
        for pending in (try? journal.sessionsWithPendingEvents()) ?? [] where pending.bundle == ext.identifier {
            delivery.eventsPending(app: pending.app, session: pending.session, bundle: pending.bundle)
        }
    }

    /// Ends every request, then shuts the transport and its thread down: the host leaves no
    /// thread or descriptor of its network behind.
    func shutdown() async {
        supervisor.loop.assertInLoop()
        await transfers.shutdown()
        await inline.shutdown()
        await transport.shutdown()
    }
}

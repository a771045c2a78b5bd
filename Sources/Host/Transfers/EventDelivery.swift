import Foundation
import SandglassIPC

/// Delivers the journaled events of a background session to its extension — relaunching it by
/// the session identifier when it is not running — and acknowledges them only when the
/// extension calls the completion handler it was given (`eventsFinished`). Killed before: the
/// events stay in the journal and are delivered again (at least once; the same event ids).
///
/// One conversation per session, as a `backgroundEvents` activation under its budget:
/// `backgroundEventsRequest` → `backgroundEventsReply(accepted)` → the session attached by that
/// process → `downloadFinished` / `taskCompleted` for each event → `allEventsDelivered` →
/// `eventsFinished`.
///
/// A conversation delivers a batch: the session's first events, as many as fit in half of
/// what the host may queue for a process (``Channel/maximumOutbound``). The process reads as
/// it handles each event, so a backlog sent at once (up to two events of about 16 KiB for each
/// of a session's thousand tasks) would outgrow the channel and have it killed at every
/// delivery. When the completion handler was called for a batch, the next conversation
/// delivers the next: the extension sees `urlSessionDidFinishEvents` once per batch.
///
/// An extension of protocol 4.2 or later that accepts for a session it has not attached is
/// *offered* the session at once: `sessionAttached`, the events and `allEventsDelivered` go
/// while its handler re-creates the session, instead of after the `attachSession` round trip.
/// Its `attachSession` is then the confirmation (the session exists in that process, so the
/// events reach it): only from then do the offered events count as delivered, and only they
/// are acknowledged by `eventsFinished`. Confined to the host's loop thread.
final class EventDelivery {
    /// One delivery in progress.
    final class Conversation {
        let key: SessionRegistry.Key
        let bundle: String
        var requestID: RequestID?
        var pid: Int32?
        var accepted = false
        var attached = false
        /// What an offer of the session sends, read while the extension starts.
        var offerContents: OfferContents?
        /// The events sent with an offer of the session, waiting for its confirmation.
        var offered: [EventRecord]?
        var delivered: [EventRecord] = []
        var allSent = false

        init(key: SessionRegistry.Key, bundle: String) {
            self.key = key
            self.bundle = bundle
        }
    }

    /// The tasks and events an offer of a session sends.
    struct OfferContents {
        let tasks: [TaskRecord]
        let events: [EventRecord]
    }

    /// Starts a delivery task for a session (given by the host, which owns the tasks).
    var spawn: (SessionRegistry.Key, String) -> Void = { _, _ in }
    /// The longest wait before delivering again after a failed delivery.
    var maximumRetryDelay: Duration = .seconds(300)

    private let journal: Journal
    private let supervisor: Supervisor
    private let registry: SessionRegistry
    private let clock: RunClock
    private let log: EventLog
    private var running: Set<SessionRegistry.Key> = []
    private var conversations: [SessionRegistry.Key: Conversation] = [:]
    /// Deliveries waiting to try again, woken early by ``shutdown()``.
    private let retryWaits: ClockWaits<SessionRegistry.Key>
    private var isShutDown: Bool { retryWaits.isClosed }

    /// What the host holds for each extension's downloads (a delivered body is no longer held).
    private let ledger: DownloadLedger

    init(journal: Journal, supervisor: Supervisor, registry: SessionRegistry, clock: RunClock, log: EventLog, ledger: DownloadLedger) {
        self.journal = journal
        self.ledger = ledger
        retryWaits = ClockWaits(clock: clock)
        self.supervisor = supervisor
        self.registry = registry
        self.clock = clock
        self.log = log
    }

    /// Events for `session` of `app` are about to be journaled: when they will start a delivery
    /// to an extension that is not running, its launch starts now — the spawn and the
    /// executable's start (milliseconds) overlap the journal's commit and the delivery's start.
    func eventsComing(app: String, session: String, bundle: String) {
        clock.assertInLoop()
        let key = SessionRegistry.Key(app: app, identifier: session)
        guard !isShutDown, !running.contains(key), let ext = supervisor.extensions[bundle] else { return }
        supervisor.launchAhead(ext)
    }

    /// Events are waiting for `session` of `app`: deliver them unless a delivery is running.
    func eventsPending(app: String, session: String, bundle: String) {
        clock.assertInLoop()
        let key = SessionRegistry.Key(app: app, identifier: session)
        guard !isShutDown, !running.contains(key) else { return }
        running.insert(key)
        spawn(key, bundle)
    }

    /// Delivers until the session has no events left, a configuration declines it, or the
    /// extension is not installed. Runs on a task of the host.
    func run(_ key: SessionRegistry.Key, bundle: String) async {
        clock.assertInLoop()
        defer { running.remove(key) }
        var failures = 0
        while !isShutDown {
            let pending = (try? journal.pendingEventCount(app: key.app, session: key.identifier)) ?? 0
            guard pending > 0 else { return }
            guard let ext = supervisor.extensions[bundle] else {
                log.emit(
                    .eventsWaiting,
                    [
                        ("bundle", .string(bundle)), ("session", .string(key.identifier)),
                        ("events", .int(Int64(pending))),
                        ("detail", "the extension is not installed; its events stay in the journal")
                    ])
                return
            }
            let conversation = Conversation(key: key, bundle: bundle)
            conversations[key] = conversation
            if ext.process.map({ $0.state == .launching }) ?? true {
                // A relaunch (launched ahead, or spawned in this turn), whose extension will likely
                // be offered the session: what the offer sends is read at the end of this turn,
                // while the extension starts, rather than when it accepts.
                supervisor.loop.atEndOfTurn { [unowned self] in
                    conversation.offerContents = self.offerContents(key)
                }
            }
            let outcome = await supervisor.activate(ext, .backgroundEvents, session: key.identifier) { [unowned self] id, process in
                conversation.requestID = id
                conversation.pid = process.pid
                conversation.attached = self.registry.isHeld(key, by: process.pid)
            }
            if conversations[key] === conversation { conversations.removeValue(forKey: key) }
            if conversation.offered != nil, !conversation.attached, let pid = conversation.pid {
                registry.detach(key, pid: pid) // offered, never confirmed: free for another process
            }
            switch outcome {
            case .eventsFinished:
                failures = 0
                if conversation.allSent { continue }
                failures += 1
            case .declined:
                log.emit(
                    .eventsDeclined,
                    [
                        ("bundle", .string(bundle)), ("session", .string(key.identifier)),
                        ("events", .int(Int64(pending))),
                        (
                            "detail",
                            "no configuration's onBackgroundURLSessionEvents matching block took this identifier; the events stay queued"
                        )
                    ])
                return
            default:
                failures += 1
            }
            // Killed, failed or finished early: deliver again later (the events are still journaled).
            let delay = min(Duration.seconds(1 << min(failures - 1, 8)), maximumRetryDelay)
            log.emit(
                .eventsRedelivery,
                [
                    ("bundle", .string(bundle)), ("session", .string(key.identifier)),
                    ("outcome", .string(outcome.label)), ("delayMs", .double(delay.milliseconds))
                ])
            await retryWaits.wait(until: clock.now + delay.nanoseconds, for: key)
        }
    }

    /// The host is shutting down: no delivery starts again; those waiting to retry end now
    /// (their events stay in the journal for the next host).
    func shutdown() {
        clock.assertInLoop()
        retryWaits.close()
    }

    // MARK: the extension's side of the conversation

    /// `backgroundEventsReply`: accepted → deliver once the session is attached; declined → done.
    func replied(_ id: RequestID, accepted: Bool, ext: ManagedExtension, pid: Int32) {
        clock.assertInLoop()
        guard let conversation = conversations.values.first(where: { $0.requestID == id && $0.pid == pid }) else { return }
        guard accepted else {
            supervisor.complete(ext, id, .declined)
            return
        }
        conversation.accepted = true
        if !conversation.attached, let process = ext.process, process.pid == pid,
            let hello = process.hello, hello.version >= .sessionOffers,
            registry.attach(conversation.key, bundle: ext.identifier, pid: pid) == nil
        {
            offer(conversation, ext: ext, process: process)
        }
        sendIfReady(conversation, ext: ext)
    }

    /// The session offered to the process that accepted (`sessionAttached` before it asked),
    /// with its events; they count as delivered once the process confirms.
    private func offer(_ conversation: Conversation, ext: ManagedExtension, process: ExtensionProcess) {
        let key = conversation.key
        let contents = conversation.offerContents ?? offerContents(key)
        sendAttached(key, tasks: contents.tasks, to: process, of: ext, offered: true)
        conversation.offered = send(contents.events, of: key, to: process, of: ext)
    }

    /// `sessionAttached` with the session's `tasks` — the answer to `attachSession`, or an offer —
    /// and its `session.attached` event.
    func sendAttached(
        _ key: SessionRegistry.Key, tasks records: [TaskRecord], to process: ExtensionProcess, of ext: ManagedExtension, offered: Bool
    ) {
        let tasks = TaskRecord.snapshots(of: records, for: process)
        process.channel.send(.sessionAttached(identifier: key.identifier, tasks: tasks))
        let ended = tasks.filter { $0.state == .completed }.count
        var fields: [(String, JSONValue)] = [
            ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
            ("session", .string(key.identifier)), ("tasks", .int(Int64(tasks.count - ended))),
            ("endedTasks", .int(Int64(ended)))
        ]
        if offered { fields.append(("offered", true)) }
        log.emit(.sessionAttached, fields)
    }

    /// The session's tasks a process that never saw them needs (those still open, and the
    /// ended ones whose events wait) and its first pending events.
    private func offerContents(_ key: SessionRegistry.Key) -> OfferContents {
        OfferContents(tasks: (try? journal.attachableTasks(app: key.app, session: key.identifier)) ?? [], events: firstPending(key))
    }

    /// Events read from the journal for one batch, at most: a batch is cut from them by size.
    static let eventsPerRead = 512

    /// The session's first pending events, up to ``eventsPerRead``.
    private func firstPending(_ key: SessionRegistry.Key) -> [EventRecord] {
        (try? journal.pendingEvents(app: key.app, session: key.identifier, limit: Self.eventsPerRead)) ?? []
    }

    /// `attachSession` from the process a session was offered to: the confirmation. Its
    /// offered events are delivered from now on (the process needs no answer). False when
    /// there was no offer to `pid`.
    func confirm(_ key: SessionRegistry.Key, pid: Int32) -> Bool {
        clock.assertInLoop()
        guard let conversation = conversations[key], conversation.pid == pid, let offered = conversation.offered,
            !conversation.attached
        else { return false }
        conversation.attached = true
        conversation.delivered = offered
        conversation.allSent = true
        return true
    }

    /// The process attached the session: deliver if its conversation was waiting for that.
    func attached(_ key: SessionRegistry.Key, ext: ManagedExtension, pid: Int32) {
        clock.assertInLoop()
        guard let conversation = conversations[key], conversation.pid == pid else { return }
        conversation.attached = true
        sendIfReady(conversation, ext: ext)
    }

    /// `eventHandled`: the delegate call for `eventID` returned; `delegateStartedAtNs` says when
    /// it began (CLOCK_MONOTONIC, as the extension read it), when there was one. Only an event
    /// this process was given in its conversation is recorded; any other id is the extension's
    /// invention, ignored.
    func handled(_ key: SessionRegistry.Key, eventID: UInt64, delegateStartedNs: UInt64, ext: ManagedExtension, pid: Int32) {
        clock.assertInLoop()
        guard let conversation = conversations[key], conversation.pid == pid, let id = Int64(exactly: eventID),
            conversation.delivered.contains(where: { $0.id == id }) || conversation.offered?.contains(where: { $0.id == id }) == true
        else { return }
        var fields: [(String, JSONValue)] = [
            ("bundle", .string(ext.identifier)), ("pid", .int(Int64(pid))),
            ("session", .string(key.identifier)), ("eventId", .int(id))
        ]
        if delegateStartedNs > 0 { fields.append(("delegateStartedAtNs", .int(Int64(clamping: delegateStartedNs)))) }
        log.emit(.eventHandled, fields)
        if let process = ext.process, process.pid == pid { supervisor.hooks.stepReached(.handlerRunning, ext, process) }
    }

    /// `eventsFinished`: the completion handler was called — every event delivered in this
    /// conversation is acknowledged and dropped from the journal.
    func finished(_ key: SessionRegistry.Key, ext: ManagedExtension, pid: Int32) {
        clock.assertInLoop()
        guard let conversation = conversations[key], conversation.pid == pid, let id = conversation.requestID else {
            let fields: [(String, JSONValue)] = [
                ("bundle", .string(ext.identifier)), ("pid", .int(Int64(pid))),
                ("session", HelloLimits.logged(key.identifier)),
                ("detail", "the completion handler was called with no delivery in progress; ignored")
            ]
            if let process = ext.process, process.pid == pid {
                supervisor.emitCharged(.eventsFinishedUnexpected, fields, for: process, of: ext)
            } else {
                log.emit(.eventsFinishedUnexpected, fields)
            }
            return
        }
        let ids = conversation.delivered.compactMap(\.id)
        let process = ext.process.flatMap { $0.pid == pid ? $0 : nil }
        if let process { supervisor.hooks.stepReached(.completionSent, ext, process) }
        // The intent first: a host that dies between the commit and `events.finished` leaves
        // a log that still names what may have been acknowledged (invariant checks use it).
        log.emit(
            .eventsAcknowledging,
            [
                ("bundle", .string(ext.identifier)), ("pid", .int(Int64(pid))),
                ("identifier", .string(key.identifier)), ("eventIds", .array(ids.map { .int($0) }))
            ])
        let acknowledged = (try? journal.acknowledge(ids)) ?? 0
        if let process { supervisor.hooks.stepReached(.acknowledgementJournaled, ext, process) }
        for event in conversation.delivered { if let file = event.file { ledger.removeFile(file) } }
        var fields: [(String, JSONValue)] = [
            ("bundle", .string(ext.identifier)), ("pid", .int(Int64(pid))),
            ("identifier", .string(key.identifier)), ("acknowledged", .int(Int64(acknowledged))),
            ("eventIds", .array(ids.map { .int($0) }))
        ]
        if !conversation.allSent { fields.append(("detail", "the completion handler was called before all events were delivered")) }
        log.emit(.eventsFinished, fields)
        supervisor.complete(ext, id, .eventsFinished(count: acknowledged))
    }

    private func sendIfReady(_ conversation: Conversation, ext: ManagedExtension) {
        guard conversation.accepted, conversation.attached, !conversation.allSent, let process = ext.process,
            process.pid == conversation.pid
        else { return }
        conversation.delivered = send(firstPending(conversation.key), of: conversation.key, to: process, of: ext)
        conversation.allSent = true
    }

    /// Sends a batch of `events` of the session — the first of them, as many as fit in half the
    /// channel's ``Channel/maximumOutbound`` less what already waits in it (at least one) — each
    /// counted as one more delivery,
    /// then `allEventsDelivered`. Returns the batch.
    private func send(
        _ events: [EventRecord], of key: SessionRegistry.Key, to process: ExtensionProcess, of ext: ManagedExtension
    ) -> [EventRecord] {
        var batch: [(event: EventRecord, stamp: EventStamp, frame: [UInt8])] = []
        var bytes = 0
        // Half the channel's limit, less what already waits in it (an offer's list of tasks).
        let budget = process.channel.maximumOutbound / 2 - process.channel.pendingOutput
        for event in events {
            let stamp = EventStamp(eventID: UInt64(event.id ?? 0), attempt: event.deliveries + 1)
            let frame = Frame.encode(message(for: event, of: key, stamp))
            if !batch.isEmpty && bytes + frame.count > budget { break }
            bytes += frame.count
            batch.append((event, stamp, frame))
        }
        try? journal.markDelivered(batch.compactMap(\.event.id))
        for (event, stamp, frame) in batch {
            log.emit(
                .eventDelivered,
                [
                    ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
                    ("session", .string(key.identifier)), ("taskId", .int(Int64(event.taskIdentifier))),
                    ("eventId", .int(Int64(stamp.eventID))), ("attempt", .int(Int64(stamp.attempt))),
                    ("callback", .string(event.kind == .downloadFinished ? "didFinishDownloadingTo" : "didCompleteWithError"))
                ])
            process.channel.send(frame: frame, passing: event.kind == .downloadFinished ? body(of: event) : nil)
            supervisor.hooks.stepReached(.eventDelivered, ext, process)
        }
        process.channel.send(.allEventsDelivered(identifier: key.identifier))
        return batch.map(\.event)
    }

    /// The message that delivers `event`.
    private func message(for event: EventRecord, of key: SessionRegistry.Key, _ stamp: EventStamp) -> Message {
        switch event.kind {
        case .downloadFinished:
            .downloadFinished(
                session: key.identifier, taskIdentifier: event.taskIdentifier, stamp, file: "CFNetworkDownload_\(event.id ?? 0).tmp",
                event.response ?? HTTPResponsePayload(url: "", statusCode: 200, headers: [], expectedContentLength: -1))
        case .taskCompleted:
            .taskCompleted(session: key.identifier, taskIdentifier: event.taskIdentifier, stamp, error: event.error, event.response)
        }
    }

    /// A read-only descriptor of the downloaded body, passed with `downloadFinished`: the SDK
    /// makes the file in the container itself, as the extension's user (the host keeps its own
    /// copy, in its private Transfers directory, until the event is acknowledged).
    private func body(of event: EventRecord) -> Int32? {
        guard let file = event.file else { return nil }
        let fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        return fd >= 0 ? fd : nil
    }
}

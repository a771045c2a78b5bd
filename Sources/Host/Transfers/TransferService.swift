import CSandbox
import Foundation
import SandglassIPC
import Synchronization

/// Performs background downloads on extensions' behalf, as nsurlsessiond does: a task lives in
/// the journal from its creation; each HTTP attempt streams to a file in the host's data
/// directory; transient failures are retried with backoff (and a Range resume when the server
/// allows it) until the session's resource timeout; the end of a task becomes journaled events
/// for its session, handed to the delivery. Everything scheduled is on the run clock.
/// Confined to the host's loop thread.
final class TransferService {
    /// How the host hears from attempts running off the loop.
    weak var core: HostCore?
    /// Called when a session has new events to deliver.
    var eventsPending: (_ app: String, _ session: String, _ bundle: String) -> Void = { _, _, _ in }
    /// Called just before a session's new events are journaled (then `eventsPending`).
    var eventsComing: (_ app: String, _ session: String, _ bundle: String) -> Void = { _, _, _ in }
    /// Called with the progress of a task, for a live process that has its session.
    var progressed: (TaskRecord) -> Void = { _ in }
    /// Whether a process is told of the task's progress (its session's holder is running).
    var listening: (TaskRecord) -> Bool = { _ in true }
    /// The most attempts of one task before its failure is final.
    var maximumAttempts = 8
    /// How many bytes of downloads the host may hold for an extension (its container quota).
    var quotaBytes: (_ bundle: String) -> Int64 = { _ in Int64(Budgets().containerBytes) }

    /// The wait before the next attempt after a transient failure of attempt `attempt` (from
    /// 1), on the run clock: 1 s, 2 s, 4 s … doubling, at most 60 s.
    static func retryDelay(afterAttempt attempt: Int) -> Duration {
        .seconds(min(60, 1 << min(max(attempt, 1) - 1, 6)))
    }

    let journal: Journal
    private let log: EventLog
    private let clock: RunClock
    private let directory: String
    private let transport: HTTPTransport
    /// What the files of `directory` hold, for each extension.
    let ledger: DownloadLedger
    private var attempts: [Int64: Attempt] = [:]
    private var startTimers: [Int64: RunClock.Timer] = [:]
    private var resourceTimers: [Int64: RunClock.Timer] = [:]
    private var lastProgressEvent: [Int64: UInt64] = [:]

    init(
        journal: Journal, log: EventLog, clock: RunClock, directory: String, transport: HTTPTransport,
        ledger: DownloadLedger = DownloadLedger()
    ) throws {
        self.journal = journal
        self.ledger = ledger
        self.log = log
        self.clock = clock
        self.directory = directory
        self.transport = transport
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// Attempts in flight now.
    var activeAttempts: Int { attempts.count }

    // MARK: tasks

    /// Records a new background task (suspended until resumed) and returns it.
    /// Its event keeps `fieldBytes` of its URL and description.
    func create(
        app: String, bundle: String, pid: Int32, _ payload: TaskRequestPayload, fieldBytes: Int = MessageLimits.fieldBytes
    ) throws -> TaskRecord {
        clock.assertInLoop()
        let task = try journal.createTask(
            TaskRecord(
                app: app, session: payload.session, bundle: bundle, taskIdentifier: 0, kind: payload.kind, state: .suspended,
                request: payload.request, taskDescription: payload.taskDescription, earliestBeginDate: payload.earliestBeginDate,
                expectsSend: payload.countOfBytesClientExpectsToSend, expectsReceive: payload.countOfBytesClientExpectsToReceive,
                createdAt: clock.currentDate))
        var fields = taskFields(task, pid: pid)
        fields += [
            ("url", .string(MessageLimits.field(task.request.url, to: fieldBytes))),
            ("taskKind", .string(task.kind == .download ? "download" : "data"))
        ]
        if let description = task.taskDescription {
            fields.append(("taskDescription", .string(MessageLimits.field(description, to: fieldBytes))))
        }
        if let begin = task.earliestBeginDate { fields.append(("earliestBeginDate", .string(iso8601(begin)))) }
        if let notSent = RequestPolicy.headersNotSentField(task.request) { fields.append(notSent) }
        log.emit(.taskCreated, fields)
        return task
    }

    /// `resume()`: the task starts at its earliest begin date (or now).
    func resume(_ task: TaskRecord) throws {
        clock.assertInLoop()
        guard task.state == .suspended else { return }
        var task = task
        task.state = .waiting
        try journal.update(task)
        schedule(task, at: task.earliestBeginDate.map { clock.instant(at: $0) } ?? clock.now)
        armResourceTimeout(task)
    }

    /// `timeoutIntervalForResource`: the task's whole life, retries included, from its creation.
    private func armResourceTimeout(_ task: TaskRecord) {
        guard let id = task.id, let session = try? journal.session(app: task.app, identifier: task.session) else { return }
        if let timer = resourceTimers.removeValue(forKey: id) { clock.cancel(timer) }
        let deadline = clock.instant(at: task.createdAt + session.resourceTimeout)
        resourceTimers[id] = clock.schedule(at: max(deadline, clock.now)) { [weak self] in
            self?.resourceTimedOut(id)
        }
    }

    private func resourceTimedOut(_ id: Int64) {
        resourceTimers.removeValue(forKey: id)
        guard var task = try? journal.task(id: id), [.waiting, .running].contains(task.state) else { return }
        if let timer = startTimers.removeValue(forKey: id) { clock.cancel(timer) }
        let attempt = attempts.removeValue(forKey: id)
        attempt?.cancel()
        lastProgressEvent.removeValue(forKey: id)
        task.state = .failed
        task.error = TaskErrorPayload(code: -1001, message: "The request timed out. (timeoutIntervalForResource passed)")
        task.finishedAt = clock.currentDate
        discard(partialPath(task), after: attempt)
        log.emit(
            .downloadFailed,
            taskFields(task) + [
                ("error", .string(task.error!.message)), ("code", .int(-1001)),
                ("attempts", .int(Int64(task.attempts)))
            ])
        try? end(task, events: [event(task, .taskCompleted, file: nil)])
    }

    /// `cancel()`: stops the task; its session gets a cancelled completion.
    func cancel(_ task: TaskRecord) throws {
        clock.assertInLoop()
        guard let id = task.id, !TaskRecord.State.ended.contains(task.state) else { return }
        if let timer = startTimers.removeValue(forKey: id) { clock.cancel(timer) }
        let attempt = attempts.removeValue(forKey: id)
        attempt?.cancel()
        lastProgressEvent.removeValue(forKey: id)
        var task = task
        task.state = .cancelled
        task.error = TaskErrorPayload(code: -999, message: "cancelled")
        task.finishedAt = clock.currentDate
        discard(partialPath(task), after: attempt)
        try end(task, events: [event(task, .taskCompleted, file: nil)])
        log.emit(.taskCancelled, taskFields(task))
    }

    /// After a restart of the host: every task that was waiting or running starts again (a
    /// Range resume when its partial body and the server allow it).
    func recover() throws {
        clock.assertInLoop()
        chargeFilesOnDisk()
        for task in try journal.unfinishedTasks() {
            log.emit(.taskRecovered, taskFields(task) + [("bytesOnDisk", .int(partialSize(task)))])
            schedule(task, at: max(task.earliestBeginDate.map { clock.instant(at: $0) } ?? 0, clock.now))
            armResourceTimeout(task)
        }
    }

    /// Cancels every attempt (host shutdown); the journal keeps the tasks for the next start.
    /// The transport is the network service's to shut down.
    func shutdown() async {
        clock.assertInLoop()
        for timer in startTimers.values { clock.cancel(timer) }
        startTimers.removeAll()
        for timer in resourceTimers.values { clock.cancel(timer) }
        resourceTimers.removeAll()
        let running = attempts
        attempts.removeAll()
        for attempt in running.values { attempt.cancel() }
        for attempt in running.values { await attempt.task.value }
    }

    // MARK: attempts

    /// An attempt running off the loop, and its hold of the virtual clock (a request in flight),
    /// given back when the attempt ends or is cancelled.
    private struct Attempt {
        let network: RunClock.Hold
        let task: Task<Void, Never>
        /// The task as the attempt started, without its request's body: what its progress names.
        let record: TaskRecord

        func cancel() {
            task.cancel()
            network.release()
        }
    }

    private func schedule(_ task: TaskRecord, at instant: UInt64) {
        guard let id = task.id else { return }
        if let timer = startTimers.removeValue(forKey: id) { clock.cancel(timer) }
        startTimers[id] = clock.schedule(at: instant) { [weak self] in
            self?.startTimers.removeValue(forKey: id)
            self?.startAttempt(id)
        }
    }

    private func startAttempt(_ id: Int64) {
        guard attempts[id] == nil, var task = try? journal.task(id: id), task.state == .waiting || task.state == .running else { return }
        guard let session = try? journal.session(app: task.app, identifier: task.session) else { return }
        task.state = .running
        task.attempts += 1
        try? journal.update(task)
        let existing = partialSize(task)
        log.emit(.downloadStarted, taskFields(task) + [("attempt", .int(Int64(task.attempts))), ("resumeFrom", .int(existing))])
        let attempt = HTTPAttempt(
            transport: transport, readTimeout: HTTPAttempt.readTimeout(seconds: session.requestTimeout), request: task.request,
            resumeFrom: existing, validator: task.validator, owner: .background(app: task.app, bundle: task.bundle))
        let path = partialPath(task)
        let quota = DownloadLedger.Quota(ledger: ledger, bundle: task.bundle, bytes: quotaBytes(task.bundle))
        let core = self.core
        let throttle = ProgressThrottle()
        let network = clock.holdNetwork()
        var record = task
        record.request.body = nil
        attempts[id] = Attempt(
            network: network,
            task: Task {
                let sink = FileSink(path: path, existing: existing) { written, expected in
                    guard throttle.due(written == expected) else { return }
                    Task { await core?.transferProgress(id, received: written, expected: expected) }
                }
                sink.quota = quota
                sink.onResponse = { response in await core?.transferResponded(id, response) }
                let result = await attempt.run(into: sink)
                sink.close()
                await core?.transferAttemptEnded(id, result: result)
            }, record: record)
    }

    /// `response` as `task` keeps it: whole while its app's kept responses allow
    /// (``HTTPResponsePayload/appKeptBytes``), then in its smallest form.
    private func kept(_ response: HTTPResponsePayload, of task: TaskRecord) -> HTTPResponsePayload {
        response.kept(keptByApp: (try? journal.responseBytes(app: task.app)) ?? 0)
    }

    /// The response of an attempt arrived: its validator goes to the journal at once, so that
    /// a host that dies mid-body can resume with `Range` after a restart.
    func responded(_ id: Int64, _ response: HTTPResponsePayload) {
        clock.assertInLoop()
        guard attempts[id] != nil, var task = try? journal.task(id: id) else { return }
        func header(_ name: String) -> String? { response.headers.first { $0.name.lowercased() == name }?.value }
        let ranges = header("accept-ranges")?.lowercased() == "bytes"
        task.validator = ranges ? HTTPAttempt.validator(header) : nil
        task.response = kept(response, of: task)
        task.bytesExpected = response.expectedContentLength
        try? journal.update(task)
    }

    /// Progress of an attempt (throttled into `download.progress` events): every 100 ms while a
    /// process of the app holds the session and is told (`taskProgress`), every second while none
    /// does — a server pacing its bytes to many downloads made ten events and journal commits a
    /// second of each, with nobody to tell — and always the last. The task is the attempt's
    /// record: its journal row, body and all, is not read for it.
    func progress(_ id: Int64, received: Int64, expected: Int64) {
        clock.assertInLoop()
        let now = sg_monotonic_ns()
        guard let attempt = attempts[id] else { return }
        var task = attempt.record
        let interval: UInt64 = listening(task) ? 100_000_000 : 1_000_000_000
        guard now - (lastProgressEvent[id] ?? 0) >= interval || received == expected else { return }
        lastProgressEvent[id] = now
        task.bytesReceived = received
        task.bytesExpected = expected
        try? journal.recordProgress(id: id, received: received, expected: expected)
        log.emit(.downloadProgress, taskFields(task) + [("received", .int(received)), ("expected", .int(expected))])
        progressed(task)
    }

    /// The end of an attempt: finished, retried later, or failed for good.
    func attemptEnded(_ id: Int64, result: HTTPAttempt.Result) {
        clock.assertInLoop()
        guard let attempt = attempts.removeValue(forKey: id) else { return }
        attempt.network.release()
        lastProgressEvent.removeValue(forKey: id)
        guard var task = try? journal.task(id: id), task.state == .running else { return }
        let session = try? journal.session(app: task.app, identifier: task.session)
        switch result {
        case .completed(let response, let validator):
            task.response = kept(response, of: task)
            task.validator = validator
            task.bytesReceived = partialSize(task)
            task.state = .finished
            task.finishedAt = clock.currentDate
            // A download's body waits for its event; any other task's goes (no event carries it).
            let body = bodyPath(task)
            if task.kind == .download { move(partialPath(task), to: body) } else { remove(partialPath(task)) }
            log.emit(
                .downloadFinished,
                taskFields(task) + [
                    ("status", .int(Int64(response.statusCode))), ("bytes", .int(task.bytesReceived)),
                    ("attempts", .int(Int64(task.attempts)))
                ])
            var events: [EventRecord] = []
            if task.kind == .download { events.append(event(task, .downloadFinished, file: body)) }
            events.append(event(task, .taskCompleted, file: nil))
            try? end(task, events: events)
        case .failed(let error, let transient, let response, let validator):
            task.response = response.map { kept($0, of: task) } ?? task.response
            task.validator = validator ?? task.validator
            task.bytesReceived = partialSize(task)
            let elapsed = clock.currentDate - task.createdAt
            let resourceTimeout = session?.resourceTimeout ?? 604_800
            if transient && task.attempts < maximumAttempts && elapsed < resourceTimeout {
                task.state = .waiting
                try? journal.update(task)
                let delay = Self.retryDelay(afterAttempt: task.attempts)
                log.emit(
                    .downloadRetry,
                    taskFields(task) + [
                        ("attempt", .int(Int64(task.attempts))), ("error", .string(error.message)),
                        ("code", .int(Int64(error.code))), ("delayMs", .double(delay.milliseconds)),
                        ("bytesOnDisk", .int(task.bytesReceived))
                    ])
                schedule(task, at: clock.now + delay.nanoseconds)
            } else if response != nil && transient && task.kind == .download {
                // Out of attempts, but the server did answer: Apple delivers server errors as a
                // completed download whose response carries the status.
                var finished = task
                finished.state = .finished
                finished.finishedAt = clock.currentDate
                let body = bodyPath(task)
                move(partialPath(task), to: body)
                log.emit(
                    .downloadFinished,
                    taskFields(finished) + [
                        ("status", .int(Int64(response!.statusCode))), ("bytes", .int(task.bytesReceived)),
                        ("attempts", .int(Int64(task.attempts)))
                    ])
                try? end(finished, events: [event(finished, .downloadFinished, file: body), event(finished, .taskCompleted, file: nil)])
            } else {
                task.state = .failed
                task.error = error
                task.finishedAt = clock.currentDate
                remove(partialPath(task))
                log.emit(
                    .downloadFailed,
                    taskFields(task) + [
                        ("error", .string(error.message)), ("code", .int(Int64(error.code))),
                        ("attempts", .int(Int64(task.attempts)))
                    ])
                try? end(task, events: [event(task, .taskCompleted, file: nil)])
            }
        }
    }

    private func end(_ task: TaskRecord, events: [EventRecord]) throws {
        if let id = task.id, let timer = resourceTimers.removeValue(forKey: id) { clock.cancel(timer) }
        eventsComing(task.app, task.session, task.bundle)
        _ = try journal.finish(task, events: events)
        eventsPending(task.app, task.session, task.bundle)
    }

    private func event(_ task: TaskRecord, _ kind: EventRecord.Kind, file: String?) -> EventRecord {
        EventRecord(
            app: task.app, session: task.session, bundle: task.bundle, taskIdentifier: task.taskIdentifier, kind: kind,
            file: file, response: task.response, error: task.error, createdAt: clock.currentDate)
    }

    // MARK: files

    private func partialPath(_ task: TaskRecord) -> String { directory + "/task-\(task.id ?? 0).part" }
    private func bodyPath(_ task: TaskRecord) -> String { directory + "/task-\(task.id ?? 0).body" }

    /// Removes the partial body of a task that ended, once its cancelled attempt (if any) has
    /// let go of it: an attempt ends on its own task, and may still write, or make the file.
    private func discard(_ path: String, after attempt: Attempt?) {
        guard let attempt else { return remove(path) }
        Task.detached { [ledger, work = attempt.task] in
            await work.value
            ledger.removeFile(path)
        }
    }

    /// Removes a file of the directory, and its charge.
    private func remove(_ path: String) { ledger.removeFile(path) }

    /// Renames a partial body as the finished one, with its charge.
    private func move(_ partial: String, to body: String) {
        remove(body)
        try? FileManager.default.moveItem(atPath: partial, toPath: body)
        ledger.moved(partial, to: body)
    }

    /// After a restart: the files of the tasks in the journal are charged to their extensions
    /// as they are (never refused: they are already there); a file whose task the journal no
    /// longer holds (nor, then, an event of it) is left from a host that died before removing
    /// it, and goes.
    private func chargeFilesOnDisk() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            guard name.hasPrefix("task-"), let dot = name.lastIndex(of: "."), [".part", ".body"].contains(name[dot...]),
                let id = Int64(name[name.index(name.startIndex, offsetBy: 5)..<dot])
            else { continue }
            let path = directory + "/" + name
            // A journal that cannot be read now says nothing of the file: it stays.
            let found: TaskRecord?
            do { found = try journal.task(id: id) } catch { continue }
            guard let task = found else {
                try? FileManager.default.removeItem(atPath: path)
                continue
            }
            _ = ledger.admit(path, size: Self.size(of: path), for: task.bundle, limit: .max)
        }
    }

    /// Drops every event a session has waiting, and the bodies they carry (`invalidateAndCancel`).
    func dropEvents(app: String, session: String) {
        clock.assertInLoop()
        let files = ((try? journal.pendingEvents(app: app, session: session)) ?? []).compactMap(\.file)
        _ = try? journal.dropEvents(app: app, session: session)
        files.forEach(remove)
    }

    private func partialSize(_ task: TaskRecord) -> Int64 { Self.size(of: partialPath(task)) }

    /// The size of the file at `path` (0 when there is none).
    private static func size(of path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.int64Value ?? 0
    }

    private func taskFields(_ task: TaskRecord, pid: Int32? = nil) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("bundle", .string(task.bundle))]
        if let pid { fields.append(("pid", .int(Int64(pid)))) }
        fields += [("session", .string(task.session)), ("taskId", .int(Int64(task.taskIdentifier)))]
        return fields
    }
}

/// Lets progress through at most every 100 ms (and always the last).
final class ProgressThrottle: Sendable {
    private let last = Mutex<UInt64>(0)

    func due(_ final: Bool) -> Bool {
        let now = sg_monotonic_ns()
        return last.withLock { last in
            guard final || now - last >= 100_000_000 else { return false }
            last = now
            return true
        }
    }
}

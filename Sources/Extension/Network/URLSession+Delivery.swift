import Dispatch
import SandglassIPC
import Synchronization

/// How a session registers its tasks with the host and applies the host's events: in order, on
/// the session's delivery queue, each delegate call run to its end on the delegate queue.
extension URLSession {
    // MARK: Registration

    /// The `createTask` payload of a task with `properties`.
    func taskPayload(kind: TaskKind, properties: URLSessionTask.Properties) -> TaskRequestPayload {
        let request = properties.originalRequest?.payload(in: storedConfiguration) ?? HTTPRequestPayload(url: "")
        return TaskRequestPayload(
            session: wireIdentifier,
            kind: kind,
            request: request,
            taskDescription: properties.taskDescription,
            earliestBeginDate: properties.earliestBeginDate?.timeIntervalSince1970,
            countOfBytesClientExpectsToSend: properties.countOfBytesClientExpectsToSend,
            countOfBytesClientExpectsToReceive: properties.countOfBytesClientExpectsToReceive
        )
    }

    /// Registers `task` with the host (`createTask` → `taskCreated`) and returns its identifier.
    func register(_ task: URLSessionTask, _ payload: TaskRequestPayload) -> Result<Int, any Error> {
        let url = task.properties.withLock { $0.originalRequest?.url }
        let frameLength = Frame.encode(.createTask(RequestID(0), payload)).count - Frame.lengthSize
        guard frameLength <= Frame.defaultMaximumLength else {
            return .failure(
                urlError(
                    .dataLengthExceedsMaximum,
                    "the request encodes to \(frameLength) bytes, over the host's \(Frame.defaultMaximumLength)-byte frame limit",
                    url: url
                ))
        }
        let service = task.service
        let isBackground = backgroundIdentifier != nil
        // Registered on the reader thread as `taskCreated` arrives, so that the task's events,
        // which follow on the same socket, find it.
        let registerTask: @Sendable (Message) -> Void = { [self] reply in
            guard case .taskCreated(_, let identifier) = reply else { return }
            task.properties.withLock { $0.identifier = identifier }
            if isBackground {
                state.withLock { $0.tasks[identifier: identifier] = task }
            } else {
                service.registerInline(task, identifier)
            }
        }
        switch service.requests.send(on: service.connection, onReply: registerTask, { .createTask($0, payload) }) {
        case .success(.taskCreated(_, let identifier)):
            return .success(identifier)
        case .success(let other):
            return .failure(urlError(.badServerResponse, "the host answered createTask with \(other.type)", url: url))
        case .failure(.notUnderHost):
            return .failure(
                urlError(
                    .notConnectedToInternet,
                    "not running under the Sandglass host, which performs every request",
                    url: url
                ))
        case .failure(.refused(let reason)):
            return .failure(urlError(.unknown, "the host refused the task: \(reason)", url: url))
        case .failure(.timedOut(let seconds)):
            return .failure(urlError(.timedOut, "the host did not answer createTask within \(seconds) s", url: url))
        case .failure(.connectionEnded):
            return .failure(urlError(.networkConnectionLost, "the connection to the host ended before it answered createTask", url: url))
        }
    }

    /// The background task the host calls `snapshot.taskIdentifier`, re-associated: the object
    /// this session already has, or a new one — with the snapshot's properties.
    func task(for snapshot: TaskSnapshot) -> URLSessionTask {
        let task = task(identifier: snapshot.taskIdentifier, kind: snapshot.kind)
        task.apply(snapshot)
        if snapshot.state != .completed {
            state.withLock { $0.tasks.insertLive(task) }
        }
        return task
    }

    /// The background task with the host's `identifier`, created when this process has none
    /// (the events of a task started before a relaunch).
    func task(identifier: Int, kind: TaskKind) -> URLSessionTask {
        state.withLock { state in
            if let task = state.tasks[identifier: identifier] { return task }
            let task: URLSessionTask =
                switch kind {
                case .data: URLSessionDataTask(session: self, kind: .data, request: nil)
                case .download: URLSessionDownloadTask(session: self, kind: .download, request: nil)
                }
            task.properties.withLock { $0.identifier = identifier }
            state.tasks[identifier: identifier] = task
            state.tasks.insertLive(task)
            return task
        }
    }

    // MARK: Preparation

    /// What the first delivery of a new process needs, done as soon as the session exists —
    /// while the host sends the events and the delivery queue makes the tasks it attaches —
    /// instead of on the way to the first delegate call, in the order deliveries need it: the
    /// runtime's conformance cache filled for the casts of the delegate that deliveries make
    /// (each a scan of every conformance of the binary the first time); then the delegate queue
    /// made (Foundation's `OperationQueue.init` formats its name through dynamic casts) and,
    /// when it is the session's own, its thread started by an empty operation.
    func prepareForDelivery() {
        let delegate = delegate
        withExtendedLifetime(
            (
                delegate is any URLSessionDownloadDelegate, delegate is any URLSessionDataDelegate,
                delegate is any URLSessionTaskDelegate
            )
        ) {}
        let queue = delegateQueue
        if ownsDelegateQueue {
            queue.addOperations([BlockOperation {}], waitUntilFinished: true)
        }
    }

    // MARK: Events (called on the reader thread; they only enqueue)

    /// `sessionAttached`: the host's tasks of this session, re-associated.
    func attached(_ snapshots: [TaskSnapshot]) {
        delivery.async { [self] in
            for snapshot in snapshots {
                _ = task(for: snapshot)
            }
        }
    }

    /// `sessionInvalidated`: another process holds the identifier.
    func invalidatedByHost(_ error: any Error) {
        delivery.async { [self] in becomeInvalid(error) }
    }

    /// `taskProgress`: bytes received so far; `didWriteData` for a download delegate.
    func progress(_ resolve: @escaping @Sendable () -> URLSessionTask?, received: Int64, expected: Int64) {
        delivery.async { [self] in
            guard let task = resolve() else { return }
            let written = task.properties.withLock { properties -> Int64? in
                guard !properties.completionDelivered else { return nil }
                let written = max(0, received - properties.countOfBytesReceived)
                properties.countOfBytesReceived = received
                properties.countOfBytesExpectedToReceive = expected
                guard case .delegate = properties.consumer else { return nil }
                return written
            }
            guard let written, let downloadTask = task as? URLSessionDownloadTask,
                let delegate = delegate as? any URLSessionDownloadDelegate
            else { return }
            onDelegateQueue {
                delegate.urlSession(
                    self, downloadTask: downloadTask, didWriteData: written,
                    totalBytesWritten: received, totalBytesExpectedToWrite: expected
                )
            }
        }
    }

    /// `taskResponse`: the response of an inline task, before its body.
    func received(_ response: HTTPResponsePayload, for task: URLSessionTask) {
        delivery.async {
            task.properties.withLock { properties in
                properties.response = HTTPURLResponse(response)
                properties.countOfBytesExpectedToReceive = response.expectedContentLength
            }
        }
    }

    /// `taskData`: body bytes of an inline task, collected for a completion handler or handed
    /// to the delegate's `didReceive data`.
    func received(_ bytes: [UInt8], for task: URLSessionTask) {
        delivery.async { [self] in
            let toDelegate = task.properties.withLock { properties -> Bool in
                guard !properties.completionDelivered else { return false }
                properties.countOfBytesReceived += Int64(bytes.count)
                if properties.consumer.collectsBody {
                    properties.body.append(contentsOf: bytes)
                    return false
                }
                if case .delegate = properties.consumer { return true }
                return false
            }
            guard toDelegate, let dataTask = task as? URLSessionDataTask,
                let delegate = delegate as? any URLSessionDataDelegate
            else { return }
            let data = Data(bytes)
            onDelegateQueue { delegate.urlSession(self, dataTask: dataTask, didReceive: data) }
        }
    }

    /// `downloadFinished`: `didFinishDownloadingTo`, then the file is deleted and the event
    /// acknowledged. A completion handler or `download(for:)` gets the file at the completion.
    /// `path` is "" when the file could not be made (the runtime logged why): no delegate call.
    func downloadFinished(
        _ resolve: @escaping @Sendable () -> URLSessionTask?,
        _ stamp: EventStamp?,
        path: String,
        response: HTTPResponsePayload,
        connection: any RuntimeConnection
    ) {
        delivery.async { [self] in
            let call = DelegateCallStart()
            defer { acknowledge(stamp, delegateStarted: call, on: connection) }
            guard isFirstDelivery(stamp), let task = resolve(), !path.isEmpty else {
                if !path.isEmpty { removeFile(path) }
                return
            }
            let consumer = task.properties.withLock { properties -> URLSessionTask.Consumer? in
                properties.response = HTTPURLResponse(response)
                if let size = Syscalls.fileSize(path), size > properties.countOfBytesReceived {
                    properties.countOfBytesReceived = size
                }
                guard !properties.finishDelivered, !properties.completionDelivered else { return nil }
                properties.finishDelivered = true
                return properties.consumer
            }
            switch consumer {
            case .delegate?:
                if let downloadTask = task as? URLSessionDownloadTask,
                    let delegate = delegate as? any URLSessionDownloadDelegate
                {
                    let location = URL(fileURLWithPath: path)
                    onDelegateQueue {
                        call.mark()
                        delegate.urlSession(self, downloadTask: downloadTask, didFinishDownloadingTo: location)
                    }
                }
                removeFile(path)
            case .downloadHandler?, .download?:
                task.properties.withLock { $0.downloadedPath = path }
            case nil, .dataHandler?, .data?:
                removeFile(path)
            }
        }
    }

    /// `taskCompleted`: the completion, delivered once per task; then the event is acknowledged.
    func completed(
        _ resolve: @escaping @Sendable () -> URLSessionTask?,
        _ stamp: EventStamp?,
        error: TaskErrorPayload?,
        response: HTTPResponsePayload?,
        connection: any RuntimeConnection
    ) {
        delivery.async { [self] in
            let call = DelegateCallStart()
            defer { acknowledge(stamp, delegateStarted: call, on: connection) }
            guard isFirstDelivery(stamp), let task = resolve() else { return }
            let url = task.properties.withLock { $0.originalRequest?.url ?? ($0.response?.url) }
            complete(task, error: error?.error(failingURL: url), response: response.map(HTTPURLResponse.init), call: call)
        }
    }

    /// `allEventsDelivered`: `urlSessionDidFinishEvents(forBackgroundURLSession:)`.
    func allEventsDelivered() {
        delivery.async { [self] in
            guard let delegate else { return }
            onDelegateQueue { delegate.urlSessionDidFinishEvents(forBackgroundURLSession: self) }
        }
    }

    /// Completes `task` with the failure it holds (not under the host, refused, cancelled
    /// before it started).
    func completeLocally(_ task: URLSessionTask) {
        delivery.async { [self] in
            let failure = task.properties.withLock { $0.failure }
            complete(task, error: failure ?? urlError(.unknown, "the task failed"), response: nil)
        }
    }

    // MARK: Delivery (on the delivery queue)

    /// Marks `task` completed and hands the outcome to its consumer, once.
    private func complete(_ task: URLSessionTask, error: (any Error)?, response: URLResponse?, call: DelegateCallStart? = nil) {
        let outcome = task.properties.withLock { properties -> (URLSessionTask.Consumer, Data, String?, URLResponse?)? in
            guard !properties.completionDelivered else { return nil }
            properties.completionDelivered = true
            properties.state = .completed
            properties.error = error
            if let response { properties.response = response }
            let path = properties.downloadedPath
            properties.downloadedPath = nil
            let body = properties.body
            properties.body = Data()
            return (properties.consumer, body, path, properties.response)
        }
        guard let (consumer, body, path, response) = outcome else { return }
        switch consumer {
        case .delegate:
            if let delegate = delegate as? any URLSessionTaskDelegate {
                onDelegateQueue {
                    call?.mark()
                    delegate.urlSession(self, task: task, didCompleteWithError: error)
                }
            }
        case .dataHandler(let handler):
            onDelegateQueue(for: task) { handler(error == nil ? body : nil, response, error) }
        case .downloadHandler(let handler):
            let location = error == nil ? path.map { URL(fileURLWithPath: $0) } : nil
            let failure = error ?? (location == nil ? urlError(.cannotCreateFile, "the host delivered no file") : nil)
            onDelegateQueue(for: task) { handler(location, response, failure) }
            path.map(removeFile)
        case .data(let continuation):
            URLSessionTask.resume(continuation, error: error) { (body, response ?? Self.placeholderResponse(task)) }
        case .download(let continuation):
            let failure = error ?? (path == nil ? urlError(.cannotCreateFile, "the host delivered no file") : nil)
            URLSessionTask.resume(continuation, error: failure) {
                (URL(fileURLWithPath: path ?? ""), response ?? Self.placeholderResponse(task))
            }
        }
        taskDidComplete(task)
    }

    /// Forgets a completed task; the last task of a finishing session invalidates it.
    private func taskDidComplete(_ task: URLSessionTask) {
        state.withLock { $0.tasks.removeLive(task) }
        if backgroundIdentifier == nil, let identifier = task.properties.withLock({ $0.identifier }) {
            task.service.unregisterInline(identifier, task)
        }
        invalidateIfFinished()
    }

    /// Invalidates a finishing session whose tasks have all completed.
    func invalidateIfFinished() {
        let finished = state.withLock { state in
            guard case .finishing = state.lifecycle else { return false }
            return !state.tasks.live.contains { [.running, .canceling].contains($0.state) }
        }
        if finished { becomeInvalid(nil) }
    }

    /// `didBecomeInvalidWithError`, once; then the delegate is released and the identifier freed.
    func becomeInvalid(_ error: (any Error)?) {
        let delegate = state.withLock { state -> (any URLSessionDelegate)?? in
            if case .invalidated = state.lifecycle { return nil }
            state.lifecycle = .invalidated(byHost: error)
            defer { state.delegate = nil }
            return .some(state.delegate)
        }
        guard let delegate else { return }
        service.detach(self)
        if let delegate {
            onDelegateQueue { delegate.urlSession(self, didBecomeInvalidWithError: error) }
        }
    }

    /// Runs `body` on the delegate queue and waits for it to return: delegate calls happen one
    /// at a time, in order, whatever the queue. The call is bound to the runtime `task` (else
    /// the session) was made in, as provider code is: what it asks of the SDK — a reload, a log
    /// line, a new task — reaches that runtime (several may share a process: the host's
    /// in-process tests).
    func onDelegateQueue(for task: URLSessionTask? = nil, _ body: @escaping @Sendable () -> Void) {
        let runtime = (task?.service ?? service).connection as? ExtensionRuntime
        delegateQueue.addOperations(
            [BlockOperation { ExtensionRuntime.$serving.withValue(runtime) { body() } }], waitUntilFinished: true)
    }

    /// Whether the event is new in this process: an event already handled (same session and
    /// event id) is dropped without a delegate call.
    private func isFirstDelivery(_ stamp: EventStamp?) -> Bool {
        guard let stamp, let identifier = backgroundIdentifier else { return true }
        return service.recordDelivery(identifier, stamp.eventID)
    }

    /// `eventHandled` for a background event, with the instant its delegate call began.
    private func acknowledge(_ stamp: EventStamp?, delegateStarted call: DelegateCallStart, on connection: any RuntimeConnection) {
        guard let stamp, let identifier = backgroundIdentifier else { return }
        connection.send(.eventHandled(identifier: identifier, eventID: stamp.eventID, delegateStartedNs: call.nanoseconds))
    }

    private func removeFile(_ path: String) {
        Syscalls.removeFile(path)
    }

    /// A response for a task that completed without one (it cannot happen with the host, whose
    /// completions carry the response; kept so that `data(for:)` always has one).
    private static func placeholderResponse(_ task: URLSessionTask) -> URLResponse {
        URLResponse(url: task.originalRequest?.url, mimeType: nil, expectedLength: -1, textEncodingName: nil)
    }
}

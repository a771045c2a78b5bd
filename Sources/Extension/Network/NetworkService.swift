import SandglassIPC
import Synchronization

/// The runtime service of the SDK's networking: it answers the host's messages about
/// background sessions and tasks, and keeps what the process knows of them — the background
/// sessions by identifier (one per identifier), the inline tasks by the host's identifier, the
/// background events already handled, and the requests waiting for a reply.
///
/// It runs on the reader thread and never blocks there: each event goes to its session's
/// delivery queue; `backgroundEventsRequest` goes to the main actor. A session the host offers
/// before this process made it (a ``SessionOffer``) keeps its events for the session the
/// handler re-creates.
///
/// The process's runtime has one (``shared``); a runtime served in-process beside it (the host's
/// in-process tests) has its own, so that sessions, tasks and handled events stay apart.
final class NetworkService: RuntimeService {
    /// The service of the process's runtime.
    static let shared = NetworkService(owner: nil)

    private static let isRegistered = Mutex(false)

    /// The service of the runtime serving the caller: an in-process runtime's own, else the
    /// process's.
    static func forActiveRuntime() -> NetworkService {
        guard let connection = RuntimeServices.connection, connection.isInProcess else { return shared }
        return RuntimeServices.service(NetworkService.self, of: connection) { NetworkService(owner: $0) }
    }

    /// Registers the service of `runtime` before it reads its first message.
    static func register(for runtime: any RuntimeConnection) {
        if runtime.isInProcess {
            _ = RuntimeServices.service(NetworkService.self, of: runtime) { NetworkService(owner: $0) }
        } else {
            registerOnce()
        }
    }

    /// The in-process runtime this service serves; nil: the process's runtime.
    private weak let owner: (any RuntimeConnection)?
    private let servesInProcessRuntime: Bool

    let requests = HostRequests()
    /// Where a task resumed from Swift concurrency registers with the host, in order.
    let registrations = DispatchQueue(label: "sandglass.urlsession.registrations")
    private let sessions = Mutex<Sessions>(Sessions())
    private let inlineTasks = Mutex<[Int: URLSessionTask]>([:])
    /// The events handled in this process: the host's event ids by session. (Keyed by String,
    /// whose Hashable conformance a new process has already looked up: a key type of its own
    /// would cost a cold start a scan of every conformance of the binary.)
    private let handledEvents = Mutex<[String: [UInt64]]>([:])
    private let localIdentifiers = Atomic<Int>(1)

    /// The background sessions of this process by identifier, and what the host offered for
    /// those not made yet.
    private struct Sessions {
        var live: [String: URLSession] = [:]
        var offers: [String: SessionOffer] = [:]
        /// Identifiers whose `onBackgroundURLSessionEvents` handler runs (accepted, its completion
        /// not called yet): only they may be offered.
        var handling: Set<String> = []
    }

    private init(owner: (any RuntimeConnection)?) {
        self.owner = owner
        servesInProcessRuntime = owner != nil
    }

    /// Registers the process's service with the runtime, once per process.
    private static func registerOnce() {
        let isFirst = isRegistered.withLock { registered in
            defer { registered = true }
            return !registered
        }
        if isFirst { RuntimeServices.register(shared) }
    }

    /// The connection to the host, `nil` when not running under it.
    var connection: (any RuntimeConnection)? {
        servesInProcessRuntime ? owner : RuntimeServices.connection
    }

    // MARK: Sessions and tasks

    /// Takes the identifier of a new background session for this process and sends
    /// `attachSession`; what the host offered for the identifier goes to the session at once.
    /// A second live session with the same identifier is undefined behaviour on Apple
    /// platforms; here it is logged and gets no events.
    func attach(_ session: URLSession) {
        guard let identifier = session.backgroundIdentifier else { return }
        let configuration = session.storedConfiguration
        let payload = SessionConfigurationPayload(
            identifier: identifier,
            sessionSendsLaunchEvents: configuration.sessionSendsLaunchEvents,
            isDiscretionary: configuration.isDiscretionary,
            timeoutIntervalForRequest: configuration.timeoutIntervalForRequest,
            timeoutIntervalForResource: configuration.timeoutIntervalForResource,
            sharedContainerIdentifier: configuration.sharedContainerIdentifier)
        let isFirst = sessions.withLock { sessions in
            if sessions.live[identifier] != nil { return false }
            sessions.live[identifier] = session
            // Under the lock, the confirmation first, then the offer: what the reader thread
            // routes to the session next is queued after the offered events, and the host hears
            // of the session before any completion the events lead to.
            connection?.send(.attachSession(payload))
            sessions.offers.removeValue(forKey: identifier)?.deliver(to: session)
            return true
        }
        guard isFirst else {
            connection?.log(
                .warning,
                "a second URLSession with background identifier '\(identifier)' in one process "
                    + "(undefined on Apple platforms): its events go to the first")
            return
        }
        if session.delegate == nil {
            connection?.log(.warning, "background URLSession '\(identifier)' has no delegate: its events cannot be delivered")
        }
    }

    /// A handler took the background events of `identifier`: the host may offer the session.
    func handlerStarted(_ identifier: String) {
        sessions.withLock { _ = $0.handling.insert(identifier) }
    }

    /// The handler of `identifier` called its completion: an offer no session took is withdrawn
    /// (the host, without a confirmation, keeps its events).
    func handlerFinished(_ identifier: String) {
        let withdrawn = sessions.withLock { sessions in
            sessions.handling.remove(identifier)
            return sessions.offers.removeValue(forKey: identifier)
        }
        withdrawn?.discard()
    }

    /// Frees the identifier of an invalidated session: a new session may take it.
    func detach(_ session: URLSession) {
        guard let identifier = session.backgroundIdentifier else { return }
        sessions.withLock { sessions in
            if sessions.live[identifier] === session { sessions.live[identifier] = nil }
        }
    }

    /// The live background session of `identifier`.
    func session(_ identifier: String) -> URLSession? {
        sessions.withLock { $0.live[identifier] }
    }

    /// Records an inline task under the host's identifier.
    func registerInline(_ task: URLSessionTask, _ identifier: Int) {
        inlineTasks.withLock { $0[identifier] = task }
    }

    /// Forgets a completed inline task.
    func unregisterInline(_ identifier: Int, _ task: URLSessionTask) {
        inlineTasks.withLock { tasks in
            if tasks[identifier] === task { tasks[identifier] = nil }
        }
    }

    /// An identifier for a task the host never registered (not under the host, or refused).
    func nextLocalIdentifier() -> Int {
        localIdentifiers.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// Records the delivery of event `eventID` of session `identifier`; false when it was
    /// handled before in this process (a duplicate).
    func recordDelivery(_ identifier: String, _ eventID: UInt64) -> Bool {
        handledEvents.withLock { handled in
            if handled[identifier]?.contains(eventID) == true { return false }
            handled[identifier, default: []].append(eventID)
            return true
        }
    }

    // MARK: Messages from the host

    func handle(_ message: Message, runtime: any RuntimeConnection) -> Bool {
        guard servesInProcessRuntime ? runtime === owner : !runtime.isInProcess else { return false }
        switch message {
        case .taskCreated, .taskList:
            if !requests.fulfil(message, from: runtime) {
                runtime.log(.warning, "the host sent \(message.type) for request \(message.requestID!), which no one waits for")
            }
        case .error(let report):
            guard report.requestID != nil else { return false }
            return requests.fulfil(message, from: runtime)
        case .sessionAttached(let identifier, let tasks):
            withSession(identifier, message, runtime, opensOffer: true) { $0.attached(tasks) }
        case .sessionInvalidated(let identifier, let error):
            withSession(identifier, message, runtime) { session in
                let error =
                    error?.error(failingURL: nil)
                    ?? urlError(.backgroundSessionInUseByAnotherProcess, "another process holds background session '\(identifier)'")
                session.invalidatedByHost(error)
            }
        case .backgroundEventsRequest(let id, let identifier):
            let handlers = (runtime as? ExtensionRuntime)?.backgroundSessionHandlers ?? []
            BackgroundSessionHandler.deliver(id, identifier: identifier, to: handlers, runtime: runtime, service: self)
        case .allEventsDelivered(let identifier):
            withSession(identifier, message, runtime) { $0.allEventsDelivered() }
        case .taskProgress(let session, let taskIdentifier, let received, let expected):
            withTask(session, taskIdentifier, .download, message, runtime) { session, resolve in
                session.progress(resolve, received: received, expected: expected)
            }
        case .taskResponse(let session, let taskIdentifier, let response):
            withTask(session, taskIdentifier, .data, message, runtime) { session, resolve in
                if let task = resolve() { session.received(response, for: task) }
            }
        case .taskData(let session, let taskIdentifier, let bytes):
            withTask(session, taskIdentifier, .data, message, runtime) { session, resolve in
                if let task = resolve() { session.received(bytes, for: task) }
            }
        case .downloadFinished(let session, let taskIdentifier, let stamp, let path, let response):
            // `path`: the file the runtime made from the descriptor that came with the frame.
            withTask(session, taskIdentifier, .download, message, runtime, file: path) { session, resolve in
                session.downloadFinished(resolve, stamp, path: path, response: response, connection: runtime)
            }
        case .taskCompleted(let session, let taskIdentifier, let stamp, let error, let response):
            withTask(session, taskIdentifier, .data, message, runtime) { session, resolve in
                session.completed(resolve, stamp, error: error, response: response, connection: runtime)
            }
        default:
            return false
        }
        return true
    }

    /// Hands `body` the live session `identifier`; keeps it for the session when the host
    /// offered it and it is not made yet (`opensOffer`: a `sessionAttached` the process did not
    /// ask for, while a handler runs for the identifier). Anything else is dropped, and logged.
    private func withSession(
        _ identifier: String,
        _ message: Message,
        _ runtime: any RuntimeConnection,
        opensOffer: Bool = false,
        file: String? = nil,
        _ body: @escaping @Sendable (URLSession) -> Void
    ) {
        enum Route {
            case live(URLSession)
            case kept
            case dropped
        }
        let route = sessions.withLock { sessions -> Route in
            if let session = sessions.live[identifier] { return .live(session) }
            let offered = sessions.offers[identifier] != nil
            guard offered || (opensOffer && sessions.handling.contains(identifier)) else { return .dropped }
            sessions.offers[identifier, default: SessionOffer()].deliveries.append(body)
            if let file, !file.isEmpty { sessions.offers[identifier, default: SessionOffer()].files.append(file) }
            return .kept
        }
        switch route {
        case .live(let session):
            body(session)
        case .kept:
            break
        case .dropped:
            runtime.log(
                .warning,
                "the host sent \(message.type) for background session '\(identifier)', "
                    + "which this process has not created; dropped")
        }
    }

    /// Finds the session of a task event and a way to find the task on the session's delivery
    /// queue: an inline task by its identifier, a background task by its identifier in its
    /// session (re-associated there, so after `sessionAttached`; a task this process does not
    /// know is created, of `kind`).
    private func withTask(
        _ sessionIdentifier: String,
        _ taskIdentifier: Int,
        _ kind: TaskKind,
        _ message: Message,
        _ runtime: any RuntimeConnection,
        file: String? = nil,
        _ body: @escaping @Sendable (URLSession, @escaping @Sendable () -> URLSessionTask?) -> Void
    ) {
        if sessionIdentifier.isEmpty {
            guard let task = inlineTasks.withLock({ $0[taskIdentifier] }), let session = task.session else {
                runtime.log(
                    .debug,
                    "the host sent \(message.type) for inline task \(taskIdentifier), "
                        + "which has completed or is not this process's; dropped")
                return
            }
            body(session, { task })
        } else {
            withSession(sessionIdentifier, message, runtime, file: file) { session in
                body(session, { session.task(identifier: taskIdentifier, kind: kind) })
            }
        }
    }
}

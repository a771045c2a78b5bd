import SandglassIPC
import Synchronization

/// A transfer of a `URLSession`: created suspended, started with ``resume()``.
///
/// The host performs every transfer. A task is registered with the host — and gets its
/// ``taskIdentifier`` — when it is resumed or when its identifier is first read, carrying the
/// ``taskDescription``, ``earliestBeginDate`` and byte hints set by then. For a background task
/// the host keeps them, so after a relaunch the re-associated task has the same identifier and
/// description:
///
/// ```swift
/// let task = session.downloadTask(with: url)
/// task.taskDescription = token            // survives the process
/// task.earliestBeginDate = Date().addingTimeInterval(15 * 60)
/// task.countOfBytesClientExpectsToReceive = 64 * 1024
/// task.resume()
/// ```
open class URLSessionTask: NSObject, @unchecked Sendable {
    /// The state of a task (Apple's raw values).
    public enum State: Int, Sendable, Hashable {
        /// Transferring, or waiting for its `earliestBeginDate`.
        case running = 0
        /// Not started, or suspended.
        case suspended = 1
        /// `cancel()` was called; the completion with `URLError.cancelled` is on its way.
        case canceling = 2
        /// Finished, successfully or not.
        case completed = 3
    }

    /// Who receives the task's results.
    enum Consumer: Sendable {
        /// The session's delegate.
        case delegate
        /// A completion handler given to `dataTask(with:completionHandler:)`.
        case dataHandler(@Sendable (Data?, URLResponse?, (any Error)?) -> Void)
        /// A completion handler given to `downloadTask(with:completionHandler:)`.
        case downloadHandler(@Sendable (URL?, URLResponse?, (any Error)?) -> Void)
        /// `data(for:)` waiting.
        case data(CheckedContinuation<(Data, URLResponse), any Error>)
        /// `download(for:)` waiting.
        case download(CheckedContinuation<(URL, URLResponse), any Error>)

        /// Whether the body is collected for the consumer rather than handed to the delegate.
        var collectsBody: Bool {
            switch self {
            case .dataHandler, .data: true
            case .delegate, .downloadHandler, .download: false
            }
        }
    }

    /// What a task knows, under one lock: the app's thread, the reader thread and the
    /// session's delivery queue all reach it.
    struct Properties: Sendable {
        /// The host's identifier, once the task is registered there.
        var identifier: Int?
        /// Why the task cannot run (no host, the host refused it); reported at `resume()`.
        var failure: (any Error)?
        var taskDescription: String?
        var earliestBeginDate: Date?
        var countOfBytesClientExpectsToSend = NSURLSessionTransferSizeUnknown
        var countOfBytesClientExpectsToReceive = NSURLSessionTransferSizeUnknown
        var countOfBytesReceived: Int64 = 0
        var countOfBytesExpectedToReceive: Int64 = 0
        var countOfBytesSent: Int64 = 0
        var countOfBytesExpectedToSend: Int64 = 0
        var state = State.suspended
        var originalRequest: URLRequest?
        var currentRequest: URLRequest?
        var response: URLResponse?
        var error: (any Error)?
        var priority: Float = URLSessionTask.defaultPriority
        var consumer = Consumer.delegate
        /// The body so far, for a consumer that collects it.
        var body = Data()
        /// The downloaded file, kept until a completion handler or `download(for:)` has it.
        var downloadedPath: String?
        /// `didFinishDownloadingTo` (or its equivalent) was delivered in this process.
        var finishDelivered = false
        /// The completion was delivered in this process: a task completes once.
        var completionDelivered = false
    }

    /// The default priority of a task.
    public static let defaultPriority: Float = 0.5
    /// The lowest priority of a task.
    public static let lowPriority: Float = 0
    /// The highest priority of a task.
    public static let highPriority: Float = 1

    let kind: TaskKind
    /// The session of the task; `nil` only for tasks a subclass created with `init()`.
    let session: URLSession?
    let properties: Mutex<Properties>
    /// Held while the task is being registered with the host, so that it happens once.
    private let registration = Mutex(())
    /// The network service of the runtime the task was made in (its session's, or for a task
    /// of `URLSession.shared` the maker's).
    let service: NetworkService

    init(session: URLSession, kind: TaskKind, request: URLRequest?) {
        self.session = session
        self.service = session.service
        self.kind = kind
        var properties = Properties()
        properties.originalRequest = request
        properties.currentRequest = request
        properties.countOfBytesExpectedToSend = Int64(request?.httpBody?.count ?? 0)
        self.properties = Mutex(properties)
        super.init()
    }

    /// A task that belongs to no session (for test doubles that subclass a task); `resume()`
    /// and `cancel()` do nothing.
    public override init() {
        session = nil
        service = NetworkService.forActiveRuntime()
        kind = .data
        properties = Mutex(Properties())
        super.init()
    }

    // MARK: Properties

    /// The identifier of the task, unique within its session; the host's, and for a background
    /// task the same after a relaunch. Reading it registers the task with the host if it is not yet.
    open var taskIdentifier: Int {
        registeredIdentifier()
    }

    /// An app-defined description. For a background task it is kept by the host with the task,
    /// so it survives the process: set it before `resume()`.
    open var taskDescription: String? {
        get { properties.withLock { $0.taskDescription } }
        set { properties.withLock { $0.taskDescription = newValue } }
    }

    /// The earliest date the transfer may begin: it will not start sooner. Set it before `resume()`.
    open var earliestBeginDate: Date? {
        get { properties.withLock { $0.earliestBeginDate } }
        set { properties.withLock { $0.earliestBeginDate = newValue } }
    }

    /// A best-guess upper bound of the bytes the client expects to send; set it before `resume()`.
    open var countOfBytesClientExpectsToSend: Int64 {
        get { properties.withLock { $0.countOfBytesClientExpectsToSend } }
        set { properties.withLock { $0.countOfBytesClientExpectsToSend = newValue } }
    }

    /// A best-guess upper bound of the bytes the client expects to receive; set it before `resume()`.
    open var countOfBytesClientExpectsToReceive: Int64 {
        get { properties.withLock { $0.countOfBytesClientExpectsToReceive } }
        set { properties.withLock { $0.countOfBytesClientExpectsToReceive = newValue } }
    }

    /// Body bytes received so far.
    open var countOfBytesReceived: Int64 { properties.withLock { $0.countOfBytesReceived } }

    /// Body bytes expected, from the response's `Content-Length`; `NSURLSessionTransferSizeUnknown`
    /// when the server did not say, 0 before the response.
    open var countOfBytesExpectedToReceive: Int64 { properties.withLock { $0.countOfBytesExpectedToReceive } }

    /// Body bytes sent so far.
    open var countOfBytesSent: Int64 { properties.withLock { $0.countOfBytesSent } }

    /// Body bytes to send.
    open var countOfBytesExpectedToSend: Int64 { properties.withLock { $0.countOfBytesExpectedToSend } }

    /// The state of the task.
    open var state: State { properties.withLock { $0.state } }

    /// The request the task was created with.
    open var originalRequest: URLRequest? { properties.withLock { $0.originalRequest } }

    /// The request the task is performing (the host follows redirects itself).
    open var currentRequest: URLRequest? { properties.withLock { $0.currentRequest } }

    /// The response, once the host received it: an ``HTTPURLResponse``.
    open var response: URLResponse? { properties.withLock { $0.response } }

    /// The client-side error the task failed with; `nil` while running and on success.
    open var error: (any Error)? { properties.withLock { $0.error } }

    /// A hint of the task's priority between 0 and 1; recorded, not used by the host.
    open var priority: Float {
        get { properties.withLock { $0.priority } }
        set { properties.withLock { $0.priority = min(max(newValue, 0), 1) } }
    }

    // MARK: Control

    /// Starts the task (registering it with the host first, if needed). Resuming a running or
    /// finished task does nothing.
    ///
    /// Registering waits for the host's `taskCreated`. Called from Swift concurrency, the wait
    /// happens on the service's registration queue instead (tasks in the order resumed), as
    /// Apple's `resume()` returns at once: a thread of the cooperative pool — as wide as the
    /// machine has cores — is never held waiting for the host, which in the package's
    /// in-process tests shares that pool.
    open func resume() {
        guard properties.withLock({ $0.state == .suspended && $0.identifier == nil }),
            withUnsafeCurrentTask(body: { $0 != nil })
        else { return start() }
        service.registrations.async { self.start() }
    }

    private func start() {
        guard let session, properties.withLock({ $0.state == .suspended }) else { return }
        let identifier = registeredIdentifier()
        let start = properties.withLock { properties -> Bool? in
            guard properties.state == .suspended else { return nil }
            if properties.failure != nil { return false }
            properties.state = .running
            return true
        }
        switch start {
        case nil:
            return
        case false?:
            session.completeLocally(self)
        case true?:
            service.connection?.send(.resumeTask(session: session.wireIdentifier, taskIdentifier: identifier))
        }
    }

    /// Cancels the task: it completes with `URLError.cancelled` (for a download, unless it
    /// already finished). Cancelling a finished task does nothing.
    open func cancel() {
        guard let session else { return }
        enum Action {
            /// The host runs the task: it answers `cancelTask` with the completion.
            case atHost(Int)
            /// Not started: completed here; the host drops a registered task.
            case locally(registered: Int?)
        }
        let action = properties.withLock { properties -> Action? in
            switch properties.state {
            case .completed, .canceling:
                return nil
            case .running:
                properties.state = .canceling
                return properties.identifier.map(Action.atHost)
            case .suspended:
                let registered = properties.failure == nil ? properties.identifier : nil
                properties.state = .canceling
                properties.failure = urlError(.cancelled, "cancelled", url: properties.originalRequest?.url)
                return .locally(registered: registered)
            }
        }
        switch action {
        case nil:
            return
        case .atHost(let identifier):
            service.connection?.send(.cancelTask(session: session.wireIdentifier, taskIdentifier: identifier))
        case .locally(let registered):
            if let registered {
                service.connection?.send(.cancelTask(session: session.wireIdentifier, taskIdentifier: registered))
            }
            session.completeLocally(self)
        }
    }

    /// Suspends a task that has not started. The host has no way to pause a transfer in flight,
    /// so a running task keeps running (and the host's log says so).
    open func suspend() {
        let running = properties.withLock { $0.state == .running }
        if running {
            service.connection?.log(
                .warning,
                "URLSessionTask.suspend(): the host cannot pause a transfer in flight; task \(taskIdentifier) keeps running"
            )
        }
    }

    // MARK: Registration

    /// The host's identifier of the task, registering it with the host the first time: the
    /// `createTask` request carries the request and the properties set so far.
    func registeredIdentifier() -> Int {
        if let identifier = properties.withLock({ $0.identifier }) { return identifier }
        guard let session else {
            let identifier = service.nextLocalIdentifier()
            properties.withLock { $0.identifier = identifier }
            return identifier
        }
        return registration.withLock { _ in
            if let identifier = properties.withLock({ $0.identifier }) { return identifier }
            let (payload, failure) = properties.withLock { properties in
                (session.taskPayload(kind: kind, properties: properties), properties.failure)
            }
            let result: Result<Int, any Error> =
                if let failure {
                    .failure(failure)
                } else {
                    session.register(self, payload)
                }
            switch result {
            case .success(let identifier):
                properties.withLock { $0.identifier = identifier }
                return identifier
            case .failure(let error):
                let identifier = service.nextLocalIdentifier()
                properties.withLock { properties in
                    properties.identifier = identifier
                    if properties.failure == nil { properties.failure = error }
                }
                return identifier
            }
        }
    }

    /// Takes the snapshot the host sent of this task (after a relaunch, or for `getAllTasks`).
    func apply(_ snapshot: TaskSnapshot) {
        properties.withLock { properties in
            properties.identifier = snapshot.taskIdentifier
            properties.taskDescription = snapshot.taskDescription
            properties.earliestBeginDate = snapshot.earliestBeginDate.map(Date.init(timeIntervalSince1970:))
            properties.countOfBytesClientExpectsToSend = snapshot.countOfBytesClientExpectsToSend
            properties.countOfBytesClientExpectsToReceive = snapshot.countOfBytesClientExpectsToReceive
            properties.countOfBytesReceived = snapshot.countOfBytesReceived
            properties.countOfBytesExpectedToReceive = snapshot.countOfBytesExpectedToReceive
            if !properties.completionDelivered {
                properties.state = State(snapshot.state)
            }
            if properties.originalRequest == nil, let request = URLRequest(snapshot.request) {
                properties.originalRequest = request
                properties.currentRequest = request
            }
            if var response = snapshot.response {
                if response.url.isEmpty { response.url = snapshot.request.url }
                properties.response = HTTPURLResponse(response)
            }
            if let error = snapshot.error {
                properties.error = error.error(failingURL: properties.originalRequest?.url)
            }
        }
    }

    /// Apple's description: the task's class and identifier.
    open override var description: String {
        let identifier = properties.withLock { $0.identifier }.map(String.init) ?? "unregistered"
        return "<\(type(of: self)): \(identifier)>"
    }
}

/// A task that delivers the body to the delegate (`didReceive data`) or to a completion handler.
open class URLSessionDataTask: URLSessionTask, @unchecked Sendable {}

/// An upload task. The host performs no uploads; no session of this SDK creates one, and the
/// upload list of `getTasksWithCompletionHandler` is always empty.
open class URLSessionUploadTask: URLSessionDataTask, @unchecked Sendable {}

/// A task that downloads the body into a file, delivered to `didFinishDownloadingTo` (or a
/// completion handler) and deleted when that call returns.
open class URLSessionDownloadTask: URLSessionTask, @unchecked Sendable {}

extension URLSessionTask {
    /// Hands the task's results to `data(for:)` or `download(for:)`: at once when it already
    /// completed (cancelled before it started), else at its completion.
    func await(_ consumer: Consumer) {
        let completed = properties.withLock { properties -> (any Error)?? in
            guard properties.completionDelivered else {
                properties.consumer = consumer
                return .none
            }
            return .some(properties.error)
        }
        guard let completed else { return }
        let error = completed ?? urlError(.cancelled, "cancelled", url: originalRequest?.url)
        switch consumer {
        case .data(let continuation): continuation.resume(throwing: error)
        case .download(let continuation): continuation.resume(throwing: error)
        case .delegate, .dataHandler, .downloadHandler: break
        }
    }

    /// Completes a task of a session being invalidated with `URLError.cancelled`, here; the
    /// host is told for inline tasks (`invalidateSession` cancels a background session's).
    func cancelForInvalidation(tellHost: Bool) {
        guard let session else { return }
        let registered = properties.withLock { properties -> Int?? in
            guard properties.state != .completed, !properties.completionDelivered else { return .none }
            let registered = properties.failure == nil ? properties.identifier : nil
            properties.state = .canceling
            properties.failure = urlError(.cancelled, "cancelled", url: properties.originalRequest?.url)
            return .some(registered)
        }
        guard let registered else { return }
        if tellHost, let registered {
            service.connection?.send(.cancelTask(session: session.wireIdentifier, taskIdentifier: registered))
        }
        session.completeLocally(self)
    }

    /// Resumes an async caller with `value()`, or throws `error`.
    static func resume<Value>(
        _ continuation: CheckedContinuation<Value, any Error>,
        error: (any Error)?,
        value: () -> Value
    ) {
        if let error {
            continuation.resume(throwing: error)
        } else {
            continuation.resume(returning: value())
        }
    }
}

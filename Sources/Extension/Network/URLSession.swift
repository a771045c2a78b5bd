import Dispatch
import SandglassIPC
import Synchronization

/// Makes requests — through the host, which performs every transfer (the sandbox gives an
/// extension no internet socket).
///
/// *Inline* sessions (``shared``, `.default`, `.ephemeral` configurations) belong to the live
/// process: when it is killed — at the end of its activation's budget, say — its requests die
/// with it. *Background* sessions (`.background(withIdentifier:)`) hand their downloads to the
/// host, which finishes them after the extension is gone, relaunches it by identifier and
/// delivers the events to the session's delegate.
///
/// Create one background session per identifier, lazily, and keep it in one place, so that the
/// same code finds it whether the extension kept running or was relaunched for the events:
///
/// ```swift
/// final class Downloads {
///     static let shared = Downloads()
///     private let lock = NSLock()
///     private var sessions: [String: URLSession] = [:]
///
///     /// The session for `identifier`, created on first use — by `getTimeline` when it starts a
///     /// download, or by `onBackgroundURLSessionEvents` after a relaunch.
///     func session(for identifier: String, delegate: URLSessionDownloadDelegate) -> URLSession {
///         lock.lock(); defer { lock.unlock() }
///         if let session = sessions[identifier] { return session }
///         let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
///         let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
///         sessions[identifier] = session
///         return session
///     }
/// }
/// ```
///
/// Delegate calls and completion handlers run on ``delegateQueue``, one at a time, in the order
/// the host sent the events.
open class URLSession: NSObject, @unchecked Sendable {
    /// Whether tasks may be created, and why not.
    enum Lifecycle: Sendable {
        case active
        /// `finishTasksAndInvalidate()` or `invalidateAndCancel()` was called: no new tasks.
        case finishing
        /// Invalid: by the app (`nil`), or by the host with an error (another process holds the
        /// identifier) that every new task fails with.
        case invalidated(byHost: (any Error)?)
    }

    struct State: Sendable {
        var lifecycle = Lifecycle.active
        /// Held until the session is invalidated, as Apple does.
        var delegate: (any URLSessionDelegate)?
        var sessionDescription: String?
        var tasks = SessionTasks()
    }

    private static let sharedSession = URLSession(sharedWith: .default)

    let storedConfiguration: URLSessionConfiguration
    let isShared: Bool
    let state: Mutex<State>
    /// Applies the host's events in order, handing delegate calls to `delegateQueue`.
    let delivery: DispatchQueue
    /// The network service of the runtime the session was made in; nil for ``shared``, whose
    /// tasks each take their maker's (``URLSessionTask/service``).
    private let ownService: NetworkService?

    /// The network service this session's messages go through: its own, or for ``shared``
    /// the one of the runtime serving the caller.
    var service: NetworkService { ownService ?? NetworkService.forActiveRuntime() }

    /// The queue given at creation, else the session's own once made (``delegateQueue``).
    private let delegateQueueStorage: Mutex<OperationQueue?>
    /// Whether the delegate queue is the session's own (none was given).
    let ownsDelegateQueue: Bool

    /// The queue delegate calls and completion handlers run on: the one given at creation, else
    /// a serial queue of the session's own — made just after the session, beside the delivery
    /// queue (`prepareForDelivery()`), or here if asked for first.
    public var delegateQueue: OperationQueue {
        delegateQueueStorage.withLock { queue in
            if let queue { return queue }
            let made = Self.serialQueue()
            queue = made
            return made
        }
    }

    /// The shared inline session, for simple requests; it has no delegate and cannot be invalidated.
    ///
    /// ```swift
    /// let (data, response) = try await URLSession.shared.data(from: url)
    /// ```
    open class var shared: URLSession { sharedSession }

    /// A session with `configuration`, a delegate and the queue its calls run on (`nil`: a
    /// serial queue of the session's own). A background configuration attaches the session to
    /// the host, which answers with the tasks it holds for the identifier.
    public init(configuration: URLSessionConfiguration, delegate: (any URLSessionDelegate)?, delegateQueue queue: OperationQueue?) {
        // copy(with:), not NSObject's copy(): that one casts to NSCopying, a scan of every
        // protocol conformance of the binary on a cold start.
        storedConfiguration = configuration.copy(with: nil) as! URLSessionConfiguration
        isShared = false
        state = Mutex(State(delegate: delegate))
        delegateQueueStorage = Mutex(queue)
        ownsDelegateQueue = queue == nil
        delivery = DispatchQueue(label: "sandglass.urlsession.delivery")
        let service = NetworkService.forActiveRuntime()
        ownService = service
        super.init()
        service.attach(self)
        // Beside the delivery queue, not on it: the tasks the host attaches are made meanwhile.
        DispatchQueue.global().async { [self] in prepareForDelivery() }
    }

    /// A session with `configuration` and no delegate.
    public convenience init(configuration: URLSessionConfiguration) {
        self.init(configuration: configuration, delegate: nil, delegateQueue: nil)
    }

    private init(sharedWith configuration: URLSessionConfiguration) {
        storedConfiguration = configuration
        isShared = true
        state = Mutex(State())
        delegateQueueStorage = Mutex(nil)
        ownsDelegateQueue = true
        delivery = DispatchQueue(label: "sandglass.urlsession.shared.delivery")
        ownService = nil
        super.init()
    }

    private static func serialQueue() -> OperationQueue {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "sandglass.urlsession.delegate"
        return queue
    }

    /// A copy of the session's configuration.
    open var configuration: URLSessionConfiguration {
        storedConfiguration.copy(with: nil) as! URLSessionConfiguration
    }

    /// The delegate, until the session is invalidated.
    open var delegate: (any URLSessionDelegate)? {
        state.withLock { $0.delegate }
    }

    /// An app-defined description of the session.
    open var sessionDescription: String? {
        get { state.withLock { $0.sessionDescription } }
        set { state.withLock { $0.sessionDescription = newValue } }
    }

    /// The background identifier, `nil` for an inline session.
    var backgroundIdentifier: String? {
        storedConfiguration.kind == .background ? storedConfiguration.identifier : nil
    }

    /// The session as the protocol names it: the identifier, or "" for inline sessions.
    var wireIdentifier: String {
        backgroundIdentifier ?? ""
    }

    // MARK: Tasks with delegates

    /// A data task for `url`; the body goes to the delegate's `didReceive data`.
    open func dataTask(with url: URL) -> URLSessionDataTask {
        dataTask(with: URLRequest(url: url))
    }

    /// A data task for `request`; the body goes to the delegate's `didReceive data`.
    open func dataTask(with request: URLRequest) -> URLSessionDataTask {
        adopt(URLSessionDataTask(session: self, kind: .data, request: request), .delegate)
    }

    /// A download task for `url`; the file goes to the delegate's `didFinishDownloadingTo`.
    open func downloadTask(with url: URL) -> URLSessionDownloadTask {
        downloadTask(with: URLRequest(url: url))
    }

    /// A download task for `request`; the file goes to the delegate's `didFinishDownloadingTo`.
    open func downloadTask(with request: URLRequest) -> URLSessionDownloadTask {
        adopt(URLSessionDownloadTask(session: self, kind: .download, request: request), .delegate)
    }

    // MARK: Tasks with completion handlers (inline sessions only)

    /// A data task whose completion handler gets the whole body, the response, or the error.
    /// Not in background sessions: as on Apple platforms, that is a programming error that
    /// stops the process.
    open func dataTask(
        with url: URL,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionDataTask {
        dataTask(with: URLRequest(url: url), completionHandler: completionHandler)
    }

    /// A data task whose completion handler gets the whole body, the response, or the error.
    /// Not in background sessions.
    open func dataTask(
        with request: URLRequest,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionDataTask {
        refuseCompletionHandler("dataTask(with:completionHandler:)")
        return adopt(URLSessionDataTask(session: self, kind: .data, request: request), .dataHandler(completionHandler))
    }

    /// A download task whose completion handler gets the file (deleted when the handler
    /// returns), the response, or the error. Not in background sessions.
    open func downloadTask(
        with url: URL,
        completionHandler: @escaping @Sendable (URL?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionDownloadTask {
        downloadTask(with: URLRequest(url: url), completionHandler: completionHandler)
    }

    /// A download task whose completion handler gets the file (deleted when the handler
    /// returns), the response, or the error. Not in background sessions.
    open func downloadTask(
        with request: URLRequest,
        completionHandler: @escaping @Sendable (URL?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionDownloadTask {
        refuseCompletionHandler("downloadTask(with:completionHandler:)")
        return adopt(
            URLSessionDownloadTask(session: self, kind: .download, request: request),
            .downloadHandler(completionHandler)
        )
    }

    /// Stops the process the way Apple's runtime does when a background session is given a
    /// completion handler.
    func refuseCompletionHandler(_ call: String) {
        guard backgroundIdentifier != nil else { return }
        let message = "Completion handler blocks are not supported in background sessions. Use a delegate instead."
        service.connection?.log(.fault, "URLSession.\(call): \(message)")
        fatalError(message)
    }

    /// Records a new task with its consumer; a task of an invalidated session stops the process
    /// (as on Apple platforms), one of a session the host invalidated fails when resumed.
    func adopt<T: URLSessionTask>(_ task: T, _ consumer: URLSessionTask.Consumer) -> T {
        let lifecycle = state.withLock { state in
            if case .active = state.lifecycle {
                state.tasks.insertLive(task)
            }
            return state.lifecycle
        }
        switch lifecycle {
        case .active:
            break
        case .finishing, .invalidated(byHost: nil):
            fatalError("Task created in a session that has been invalidated")
        case .invalidated(byHost: let error?):
            task.properties.withLock { $0.failure = error }
        }
        task.properties.withLock { $0.consumer = consumer }
        return task
    }

    // MARK: Listing tasks

    /// Calls `completionHandler` on the delegate queue with every task of the session that has
    /// not completed — for a background session, the host's (re-associated after a relaunch)
    /// and those not resumed yet. It runs bound to the session's runtime, as delegate calls do.
    open func getAllTasks(completionHandler: @escaping @Sendable ([URLSessionTask]) -> Void) {
        DispatchQueue.global().async { [self] in
            let tasks = currentTasks()
            let runtime = service.connection as? ExtensionRuntime
            delegateQueue.addOperation { ExtensionRuntime.$serving.withValue(runtime) { completionHandler(tasks) } }
        }
    }

    /// Every task of the session that has not completed.
    @concurrent open var allTasks: [URLSessionTask] {
        get async {
            await withCheckedContinuation { continuation in
                getAllTasks { continuation.resume(returning: $0) }
            }
        }
    }

    /// Calls `completionHandler` on the delegate queue with the session's data, upload (always
    /// none) and download tasks that have not completed.
    open func getTasksWithCompletionHandler(
        _ completionHandler: @escaping @Sendable ([URLSessionDataTask], [URLSessionUploadTask], [URLSessionDownloadTask]) -> Void
    ) {
        getAllTasks { tasks in
            completionHandler(
                tasks.compactMap { $0 as? URLSessionDataTask }.filter { !($0 is URLSessionUploadTask) },
                [],
                tasks.compactMap { $0 as? URLSessionDownloadTask }
            )
        }
    }

    /// The tasks of the session not completed, in identifier order; asks the host for a
    /// background session's (`getTasks` → `taskList`).
    func currentTasks() -> [URLSessionTask] {
        var tasks: [URLSessionTask] = []
        func add(_ task: URLSessionTask) {
            if !tasks.contains(where: { $0 === task }) { tasks.append(task) }
        }
        if let identifier = backgroundIdentifier {
            let service = self.service
            let reply = service.requests.send(on: service.connection) {
                .getTasks($0, session: identifier)
            }
            if case .success(.taskList(_, let snapshots)) = reply {
                for snapshot in snapshots { add(task(for: snapshot)) }
            }
        }
        for task in state.withLock({ $0.tasks.live }) { add(task) }
        let open = tasks.filter { $0.state != .completed }
        return open.sorted { ($0.properties.withLock { $0.identifier } ?? .max) < ($1.properties.withLock { $0.identifier } ?? .max) }
    }

    // MARK: Invalidation

    /// Lets running tasks finish, then invalidates the session (`didBecomeInvalidWithError(nil)`).
    /// New tasks may not be created. Does nothing to ``shared``.
    open func finishTasksAndInvalidate() {
        guard !isShared else { return }
        let proceed = state.withLock { state in
            guard case .active = state.lifecycle else { return false }
            state.lifecycle = .finishing
            return true
        }
        guard proceed else { return }
        if let identifier = backgroundIdentifier {
            service.connection?.send(.invalidateSession(identifier: identifier, cancelTasks: false))
        }
        delivery.async { [self] in invalidateIfFinished() }
    }

    /// Cancels every task, then invalidates the session (`didBecomeInvalidWithError(nil)`).
    /// Does nothing to ``shared``.
    open func invalidateAndCancel() {
        guard !isShared else { return }
        let tasks = state.withLock { state -> [URLSessionTask]? in
            switch state.lifecycle {
            case .active, .finishing:
                state.lifecycle = .finishing
                return state.tasks.live
            case .invalidated:
                return nil
            }
        }
        guard let tasks else { return }
        if let identifier = backgroundIdentifier {
            service.connection?.send(.invalidateSession(identifier: identifier, cancelTasks: true))
        }
        for task in tasks {
            task.cancelForInvalidation(tellHost: backgroundIdentifier == nil)
        }
        delivery.async { [self] in becomeInvalid(nil) }
    }
}

/// An HTTP request as the SDK's `URLRequest` carries it.
public struct HTTPRequestPayload: Sendable, Hashable, Codable {
    public var url: String
    public var method: String
    /// Header fields in order (names as given).
    public var headers: [HeaderField]
    public var body: [UInt8]?
    /// `timeoutInterval` of the request, seconds (0: the session's `timeoutIntervalForRequest`).
    public var timeout: Double

    public init(url: String, method: String = "GET", headers: [HeaderField] = [], body: [UInt8]? = nil, timeout: Double = 0) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// One HTTP header field.
public struct HeaderField: Sendable, Hashable, Codable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// An HTTP response as `HTTPURLResponse` exposes it.
public struct HTTPResponsePayload: Sendable, Hashable, Codable {
    public var url: String
    public var statusCode: Int
    public var headers: [HeaderField]
    /// `Content-Length`, or -1 when unknown.
    public var expectedContentLength: Int64

    public init(url: String, statusCode: Int, headers: [HeaderField], expectedContentLength: Int64) {
        self.url = url
        self.statusCode = statusCode
        self.headers = headers
        self.expectedContentLength = expectedContentLength
    }
}

/// A client-side failure of a task, as `URLError` / `NSError` give it.
public struct TaskErrorPayload: Sendable, Hashable, Codable {
    /// `NSURLErrorDomain` codes: -999 cancelled, -1001 timed out, -1004 cannot connect,
    /// -1005 connection lost, -997 background session was disconnected, -996 in use by another process.
    public var code: Int
    public var domain: String
    public var message: String

    public init(code: Int, domain: String = "NSURLErrorDomain", message: String) {
        self.code = code
        self.domain = domain
        self.message = message
    }
}

/// What kind of task: `URLSessionDataTask` or `URLSessionDownloadTask`.
public enum TaskKind: UInt8, Sendable, Hashable, CaseIterable, Codable {
    case data = 0
    case download = 1
}

/// `URLSessionTask.State` (Apple's raw values).
public enum TaskState: UInt8, Sendable, Hashable, CaseIterable {
    case running = 0
    case suspended = 1
    case canceling = 2
    case completed = 3
}

/// The configuration of a background `URLSession` that matters to the system.
public struct SessionConfigurationPayload: Sendable, Hashable {
    public var identifier: String
    public var sessionSendsLaunchEvents: Bool
    public var isDiscretionary: Bool
    /// Seconds.
    public var timeoutIntervalForRequest: Double
    /// Seconds.
    public var timeoutIntervalForResource: Double
    public var sharedContainerIdentifier: String?

    public init(
        identifier: String, sessionSendsLaunchEvents: Bool = true, isDiscretionary: Bool = false,
        timeoutIntervalForRequest: Double = 60, timeoutIntervalForResource: Double = 604_800,
        sharedContainerIdentifier: String? = nil
    ) {
        self.identifier = identifier
        self.sessionSendsLaunchEvents = sessionSendsLaunchEvents
        self.isDiscretionary = isDiscretionary
        self.timeoutIntervalForRequest = timeoutIntervalForRequest
        self.timeoutIntervalForResource = timeoutIntervalForResource
        self.sharedContainerIdentifier = sharedContainerIdentifier
    }
}

/// A new task: background (`session` names the identifier) or inline (`session` empty:
/// `URLSession.shared`, `.default`, `.ephemeral`).
public struct TaskRequestPayload: Sendable, Hashable {
    public var session: String
    public var kind: TaskKind
    public var request: HTTPRequestPayload
    public var taskDescription: String?
    /// Seconds since 1970: not to begin before.
    public var earliestBeginDate: Double?
    public var countOfBytesClientExpectsToSend: Int64
    public var countOfBytesClientExpectsToReceive: Int64

    public init(
        session: String, kind: TaskKind, request: HTTPRequestPayload, taskDescription: String? = nil,
        earliestBeginDate: Double? = nil, countOfBytesClientExpectsToSend: Int64 = -1,
        countOfBytesClientExpectsToReceive: Int64 = -1
    ) {
        self.session = session
        self.kind = kind
        self.request = request
        self.taskDescription = taskDescription
        self.earliestBeginDate = earliestBeginDate
        self.countOfBytesClientExpectsToSend = countOfBytesClientExpectsToSend
        self.countOfBytesClientExpectsToReceive = countOfBytesClientExpectsToReceive
    }
}

/// A task as the host knows it (for `getAllTasks` and re-association after a relaunch).
public struct TaskSnapshot: Sendable, Hashable {
    public var taskIdentifier: Int
    public var kind: TaskKind
    public var state: TaskState
    public var request: HTTPRequestPayload
    public var taskDescription: String?
    public var earliestBeginDate: Double?
    public var countOfBytesClientExpectsToSend: Int64
    public var countOfBytesClientExpectsToReceive: Int64
    public var countOfBytesReceived: Int64
    public var countOfBytesExpectedToReceive: Int64
    /// The last response. Since 4.3 its `url` is empty when it is the request's (a list of
    /// tasks must fit in one frame, so the host does not send it twice).
    public var response: HTTPResponsePayload?
    public var error: TaskErrorPayload?

    public init(
        taskIdentifier: Int, kind: TaskKind, state: TaskState, request: HTTPRequestPayload,
        taskDescription: String? = nil, earliestBeginDate: Double? = nil,
        countOfBytesClientExpectsToSend: Int64 = -1, countOfBytesClientExpectsToReceive: Int64 = -1,
        countOfBytesReceived: Int64 = 0, countOfBytesExpectedToReceive: Int64 = -1,
        response: HTTPResponsePayload? = nil, error: TaskErrorPayload? = nil
    ) {
        self.taskIdentifier = taskIdentifier
        self.kind = kind
        self.state = state
        self.request = request
        self.taskDescription = taskDescription
        self.earliestBeginDate = earliestBeginDate
        self.countOfBytesClientExpectsToSend = countOfBytesClientExpectsToSend
        self.countOfBytesClientExpectsToReceive = countOfBytesClientExpectsToReceive
        self.countOfBytesReceived = countOfBytesReceived
        self.countOfBytesExpectedToReceive = countOfBytesExpectedToReceive
        self.response = response
        self.error = error
    }
}

/// A session event the host delivers: identifies the event in the host's journal, and how
/// many times it has been delivered (1 the first time; more after the extension died before
/// acknowledging). Duplicates carry the same `eventID`.
public struct EventStamp: Sendable, Hashable {
    public var eventID: UInt64
    public var attempt: Int

    public init(eventID: UInt64, attempt: Int) {
        self.eventID = eventID
        self.attempt = attempt
    }
}

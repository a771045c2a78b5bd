/// Every message of the Sandglass IPC protocol.
///
/// Direction: E→H is extension to host, H→E host to extension.
public enum Message: Sendable, Hashable {
    /// E→H, the first frame: who the extension is and what it handles.
    case hello(Hello)
    /// H→E, the answer to `hello`.
    case welcome(Welcome)

    /// H→E: `placeholder(in:)`.
    case placeholderRequest(RequestID, ActivationContext)
    /// H→E: `getSnapshot(in:completion:)`.
    case snapshotRequest(RequestID, ActivationContext)
    /// H→E: `getTimeline(in:completion:)`.
    case timelineRequest(RequestID, ActivationContext)
    /// H→E: `widgetPerformUpdate(completionHandler:)` of a Today extension.
    case performUpdateRequest(RequestID)
    /// H→E, just before the placeholder, snapshot or timeline request with the same id: the
    /// configuration of the widget it is for (since 4.1; a widget without one gets none).
    case widgetConfiguration(RequestID, WidgetConfigurationPayload)

    /// E→H: the entry answering a placeholder or snapshot request.
    case entryReply(RequestID, EntryPayload)
    /// E→H: the timeline answering a timeline request.
    case timelineReply(RequestID, TimelinePayload)
    /// E→H: the `NCUpdateResult` a Today extension passed to its completion handler.
    case updateResultReply(RequestID, UpdateResultCode)

    /// E→H: `WidgetCenter.shared.reloadTimelines(ofKind:)`.
    case reloadTimelines(kind: String)
    /// E→H: `WidgetCenter.shared.reloadAllTimelines()`.
    case reloadAllTimelines
    /// E→H: `WidgetCenter.shared.getCurrentConfigurations(_:)` (since 4.1).
    case currentConfigurationsRequest(RequestID)
    /// H→E: the widgets of the extension on screen, with their configurations (since 4.1).
    case currentConfigurations(RequestID, [WidgetConfigurationPayload])

    /// E→H: a log line.
    case log(LogRecord)
    /// E→H: a `Logger` / `os_log` message, with its subsystem and category (since 4.1).
    case osLog(OSLogRecord)
    /// Either direction: a failed request, or a refusal.
    case error(ErrorReport)
    /// H→E: are you there? Answered at once with `pong` by the SDK's reader thread, without
    /// running extension code (a liveness probe, and the IPC round trip the benchmark measures).
    case ping(UInt64)
    /// E→H: the answer to `ping`, with its number.
    case pong(UInt64)
    /// E→H: what the SDK noticed about the extension's code (main thread blocked, a completion
    /// called twice, a Today extension without `widgetPerformUpdate`).
    case diagnostic(DiagnosticReport)

    // MARK: background URL sessions

    /// E→H: the extension made `URLSession(configuration: .background(withIdentifier:))`.
    case attachSession(SessionConfigurationPayload)
    /// H→E: the session is this process's; `tasks` are those the host holds for it. The answer
    /// to `attachSession` — or, since 4.2, an *offer* sent before it: when the extension accepts a
    /// `backgroundEventsRequest` for a session it has not attached, the host attaches the session
    /// to the process at once and sends this, then the events and `allEventsDelivered`. The SDK
    /// keeps them for the session the handler re-creates (whose `attachSession` the host then
    /// takes as the confirmation, and does not answer), and drops them if the handler's
    /// completion comes first. Events offered count as delivered only once confirmed.
    case sessionAttached(identifier: String, tasks: [TaskSnapshot])
    /// H→E: the session is invalid (another process holds its identifier: error -996).
    case sessionInvalidated(identifier: String, error: TaskErrorPayload?)
    /// E→H: `finishTasksAndInvalidate()` (`cancelTasks` false) or `invalidateAndCancel()`.
    case invalidateSession(identifier: String, cancelTasks: Bool)
    /// H→E, an activation: events are waiting for session `identifier`
    /// (`onBackgroundURLSessionEvents` / `backgroundTask(.urlSession)`).
    case backgroundEventsRequest(RequestID, identifier: String)
    /// E→H: whether a configuration's matching block took the identifier.
    case backgroundEventsReply(RequestID, accepted: Bool)
    /// E→H: the delegate call for event `eventID` returned. `delegateStartedNs` is when that call
    /// began, on the machine's CLOCK_MONOTONIC (which host and extension share), or 0 when the
    /// event made no delegate call (a duplicate, a completion handler).
    case eventHandled(identifier: String, eventID: UInt64, delegateStartedNs: UInt64 = 0)
    /// E→H: the stored completion handler was called: every event delivered so far is acknowledged.
    case eventsFinished(identifier: String)
    /// H→E: every pending event of the session was delivered (`urlSessionDidFinishEvents`).
    case allEventsDelivered(identifier: String)

    // MARK: tasks (background and inline)

    /// E→H: a new task (`dataTask`, `downloadTask`, `data(from:)`, …).
    case createTask(RequestID, TaskRequestPayload)
    /// H→E: the task's identifier (stable across relaunches for background tasks).
    case taskCreated(RequestID, taskIdentifier: Int)
    /// E→H: `resume()`.
    case resumeTask(session: String, taskIdentifier: Int)
    /// E→H: `cancel()`.
    case cancelTask(session: String, taskIdentifier: Int)
    /// E→H: `getAllTasks` / `getTasksWithCompletionHandler`.
    case getTasks(RequestID, session: String)
    /// H→E: the answer to `getTasks`.
    case taskList(RequestID, [TaskSnapshot])
    /// H→E: bytes received so far (`didWriteData`, `countOfBytesReceived`).
    case taskProgress(session: String, taskIdentifier: Int, received: Int64, expected: Int64)
    /// H→E: the response of an inline task, before its body.
    case taskResponse(session: String, taskIdentifier: Int, HTTPResponsePayload)
    /// H→E: body bytes of an inline data task.
    case taskData(session: String, taskIdentifier: Int, [UInt8])
    /// H→E: a download finished. The body travels as a read-only descriptor passed with the
    /// frame's first byte (`SCM_RIGHTS`); `file` names the file the SDK makes from it in the
    /// container, as the extension's user (a name, no directory: `tmp/` for an inline task,
    /// `Library/Caches/com.apple.nsurlsessiond/Downloads/` for a background session). The SDK
    /// removes the file when the delegate call returns. (Since 3.0; before, the host wrote the
    /// file into the container itself and `file` was its path.)
    case downloadFinished(session: String, taskIdentifier: Int, EventStamp?, file: String, HTTPResponsePayload)
    /// H→E: `didCompleteWithError` (error nil on success); `EventStamp` nil for inline tasks.
    case taskCompleted(session: String, taskIdentifier: Int, EventStamp?, error: TaskErrorPayload?, HTTPResponsePayload?)

    // MARK: location

    /// H→E: the authorization the extension sees now (sent after `welcome` and on every change).
    case locationAuthorization(LocationAuthorizationPayload)
    /// E→H: `requestLocation()`, `startUpdatingLocation()`, `stopUpdatingLocation()`.
    case locationRequest(LocationRequestMode)
    /// H→E: `didUpdateLocations`.
    case locationUpdate([LocationPayload])
    /// H→E: `didFailWithError`.
    case locationFailure(LocationErrorCode)

    /// The frame type of this message.
    public var type: MessageType {
        switch self {
        case .hello: .hello
        case .welcome: .welcome
        case .placeholderRequest: .placeholderRequest
        case .snapshotRequest: .snapshotRequest
        case .timelineRequest: .timelineRequest
        case .performUpdateRequest: .performUpdateRequest
        case .widgetConfiguration: .widgetConfiguration
        case .entryReply: .entryReply
        case .timelineReply: .timelineReply
        case .updateResultReply: .updateResultReply
        case .reloadTimelines: .reloadTimelines
        case .reloadAllTimelines: .reloadAllTimelines
        case .currentConfigurationsRequest: .currentConfigurationsRequest
        case .currentConfigurations: .currentConfigurations
        case .log: .log
        case .osLog: .osLog
        case .error: .error
        case .ping: .ping
        case .pong: .pong
        case .diagnostic: .diagnostic
        case .attachSession: .attachSession
        case .sessionAttached: .sessionAttached
        case .sessionInvalidated: .sessionInvalidated
        case .invalidateSession: .invalidateSession
        case .backgroundEventsRequest: .backgroundEventsRequest
        case .backgroundEventsReply: .backgroundEventsReply
        case .eventHandled: .eventHandled
        case .eventsFinished: .eventsFinished
        case .allEventsDelivered: .allEventsDelivered
        case .createTask: .createTask
        case .taskCreated: .taskCreated
        case .resumeTask: .resumeTask
        case .cancelTask: .cancelTask
        case .getTasks: .getTasks
        case .taskList: .taskList
        case .taskProgress: .taskProgress
        case .taskResponse: .taskResponse
        case .taskData: .taskData
        case .downloadFinished: .downloadFinished
        case .taskCompleted: .taskCompleted
        case .locationAuthorization: .locationAuthorization
        case .locationRequest: .locationRequest
        case .locationUpdate: .locationUpdate
        case .locationFailure: .locationFailure
        }
    }

    /// The request a reply answers, or a request's own id.
    public var requestID: RequestID? {
        switch self {
        case .placeholderRequest(let id, _), .snapshotRequest(let id, _), .timelineRequest(let id, _),
            .performUpdateRequest(let id), .entryReply(let id, _), .timelineReply(let id, _),
            .updateResultReply(let id, _), .backgroundEventsRequest(let id, _), .backgroundEventsReply(let id, _),
            .createTask(let id, _), .taskCreated(let id, _), .getTasks(let id, _), .taskList(let id, _),
            .widgetConfiguration(let id, _), .currentConfigurationsRequest(let id), .currentConfigurations(let id, _):
            id
        case .error(let report):
            report.requestID
        case .diagnostic(let report):
            report.requestID
        case .hello, .welcome, .reloadTimelines, .reloadAllTimelines, .log, .osLog, .ping, .pong,
            .attachSession, .sessionAttached, .sessionInvalidated, .invalidateSession, .eventHandled,
            .eventsFinished, .allEventsDelivered, .resumeTask, .cancelTask, .taskProgress, .taskResponse,
            .taskData, .downloadFinished, .taskCompleted, .locationAuthorization, .locationRequest,
            .locationUpdate, .locationFailure:
            nil
        }
    }
}

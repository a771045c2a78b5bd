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

    /// E→H: a log line.
    case log(LogRecord)
    /// Either direction: a failed request, or a refusal.
    case error(ErrorReport)
    /// H→E: are you there? Answered at once with `pong` by the SDK's reader thread, without
    /// running extension code (a liveness probe, and the IPC round trip the benchmark measures).
    case ping(UInt64)
    /// E→H: the answer to `ping`, with its number.
    case pong(UInt64)

    /// The frame type of this message.
    public var type: MessageType {
        switch self {
        case .hello: .hello
        case .welcome: .welcome
        case .placeholderRequest: .placeholderRequest
        case .snapshotRequest: .snapshotRequest
        case .timelineRequest: .timelineRequest
        case .performUpdateRequest: .performUpdateRequest
        case .entryReply: .entryReply
        case .timelineReply: .timelineReply
        case .updateResultReply: .updateResultReply
        case .reloadTimelines: .reloadTimelines
        case .reloadAllTimelines: .reloadAllTimelines
        case .log: .log
        case .error: .error
        case .ping: .ping
        case .pong: .pong
        }
    }

    /// The request a reply answers, or a request's own id.
    public var requestID: RequestID? {
        switch self {
        case .placeholderRequest(let id, _), .snapshotRequest(let id, _), .timelineRequest(let id, _),
             .performUpdateRequest(let id), .entryReply(let id, _), .timelineReply(let id, _),
             .updateResultReply(let id, _):
            id
        case .error(let report):
            report.requestID
        case .hello, .welcome, .reloadTimelines, .reloadAllTimelines, .log, .ping, .pong:
            nil
        }
    }
}

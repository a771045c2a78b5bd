/// The one-byte type that follows a frame's length.
///
/// Codes are grouped by purpose so that later messages find room next to their kin:
/// `0x0_` handshake, `0x1_` activations sent by the host, `0x2_` replies, `0x3_` requests
/// the extension makes of the system, `0x4_` diagnostics, `0x5_` background URL sessions,
/// `0x6_` network requests performed by the host, `0x7_` location.
public enum MessageType: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case hello = 0x01
    case welcome = 0x02

    case placeholderRequest = 0x10
    case snapshotRequest = 0x11
    case timelineRequest = 0x12
    case performUpdateRequest = 0x13
    case widgetConfiguration = 0x14

    case entryReply = 0x20
    case timelineReply = 0x21
    case updateResultReply = 0x22

    case reloadTimelines = 0x30
    case reloadAllTimelines = 0x31
    case currentConfigurationsRequest = 0x32
    case currentConfigurations = 0x33

    case log = 0x40
    case error = 0x41
    case ping = 0x42
    case pong = 0x43
    case diagnostic = 0x44
    case osLog = 0x45

    case attachSession = 0x50
    case sessionAttached = 0x51
    case sessionInvalidated = 0x52
    case invalidateSession = 0x53
    case backgroundEventsRequest = 0x54
    case backgroundEventsReply = 0x55
    case eventHandled = 0x56
    case eventsFinished = 0x57
    case allEventsDelivered = 0x58

    case createTask = 0x60
    case taskCreated = 0x61
    case resumeTask = 0x62
    case cancelTask = 0x63
    case getTasks = 0x64
    case taskList = 0x65
    case taskProgress = 0x66
    case taskResponse = 0x67
    case taskData = 0x68
    case downloadFinished = 0x69
    case taskCompleted = 0x6A

    case locationAuthorization = 0x70
    case locationRequest = 0x71
    case locationUpdate = 0x72
    case locationFailure = 0x73

    /// The messages only the host sends; an extension sends the others (`error` goes both ways).
    public static let sentByHostOnly: Set<MessageType> = [
        .welcome, .placeholderRequest, .snapshotRequest, .timelineRequest, .performUpdateRequest, .widgetConfiguration,
        .currentConfigurations, .ping, .sessionAttached, .sessionInvalidated, .backgroundEventsRequest, .allEventsDelivered,
        .taskCreated, .taskList, .taskProgress, .taskResponse, .taskData, .downloadFinished, .taskCompleted,
        .locationAuthorization, .locationUpdate, .locationFailure
    ]

    /// The messages an extension sends: what the host's decoder accepts.
    public static let sentByExtensions = Set(allCases).subtracting(sentByHostOnly)

    /// The case name (`timelineRequest`, `downloadFinished`, …).
    public var description: String { String(describing: Self.names[self] ?? "0x\(String(rawValue, radix: 16))") }

    private static let names: [MessageType: String] = [
        .hello: "hello", .welcome: "welcome",
        .placeholderRequest: "placeholderRequest", .snapshotRequest: "snapshotRequest", .timelineRequest: "timelineRequest",
        .performUpdateRequest: "performUpdateRequest", .widgetConfiguration: "widgetConfiguration",
        .entryReply: "entryReply", .timelineReply: "timelineReply", .updateResultReply: "updateResultReply",
        .reloadTimelines: "reloadTimelines", .reloadAllTimelines: "reloadAllTimelines",
        .currentConfigurationsRequest: "currentConfigurationsRequest", .currentConfigurations: "currentConfigurations",
        .log: "log", .error: "error", .ping: "ping", .pong: "pong", .diagnostic: "diagnostic", .osLog: "osLog",
        .attachSession: "attachSession", .sessionAttached: "sessionAttached", .sessionInvalidated: "sessionInvalidated",
        .invalidateSession: "invalidateSession", .backgroundEventsRequest: "backgroundEventsRequest",
        .backgroundEventsReply: "backgroundEventsReply", .eventHandled: "eventHandled", .eventsFinished: "eventsFinished",
        .allEventsDelivered: "allEventsDelivered",
        .createTask: "createTask", .taskCreated: "taskCreated", .resumeTask: "resumeTask", .cancelTask: "cancelTask",
        .getTasks: "getTasks", .taskList: "taskList", .taskProgress: "taskProgress", .taskResponse: "taskResponse",
        .taskData: "taskData", .downloadFinished: "downloadFinished", .taskCompleted: "taskCompleted",
        .locationAuthorization: "locationAuthorization", .locationRequest: "locationRequest",
        .locationUpdate: "locationUpdate", .locationFailure: "locationFailure"
    ]
}

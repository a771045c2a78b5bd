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

    case entryReply = 0x20
    case timelineReply = 0x21
    case updateResultReply = 0x22

    case reloadTimelines = 0x30
    case reloadAllTimelines = 0x31

    case log = 0x40
    case error = 0x41
    case ping = 0x42
    case pong = 0x43

    public var description: String {
        switch self {
        case .hello: "hello"
        case .welcome: "welcome"
        case .placeholderRequest: "placeholderRequest"
        case .snapshotRequest: "snapshotRequest"
        case .timelineRequest: "timelineRequest"
        case .performUpdateRequest: "performUpdateRequest"
        case .entryReply: "entryReply"
        case .timelineReply: "timelineReply"
        case .updateResultReply: "updateResultReply"
        case .reloadTimelines: "reloadTimelines"
        case .reloadAllTimelines: "reloadAllTimelines"
        case .log: "log"
        case .error: "error"
        case .ping: "ping"
        case .pong: "pong"
        }
    }
}

/// A frame that breaks the protocol. The host records it and kills the extension that sent it.
public enum ProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The length prefix announces more bytes than the maximum frame size.
    case oversizeFrame(length: Int, limit: Int)
    /// The length prefix is zero: a frame needs at least its type byte.
    case emptyFrame
    /// The type byte names no message.
    case unknownMessageType(UInt8)
    /// The type byte names a message that goes the other way (one only the host sends, at the
    /// host): refused at that byte, before its payload is read or decoded.
    case unexpectedMessageType(MessageType)
    /// The payload does not decode as its type says.
    case malformedPayload(MessageType, reason: String, offset: Int, payloadSize: Int)
    /// A well-formed message arrived where the protocol does not allow it.
    case outOfOrder(MessageType, reason: String)

    public var description: String {
        switch self {
        case .oversizeFrame(let length, let limit):
            "oversize frame: the length prefix announces \(length) bytes, the limit is \(limit)"
        case .emptyFrame:
            "empty frame: the length prefix is 0, a frame needs at least its 1-byte type"
        case .unknownMessageType(let byte):
            "unknown message type 0x\(String(byte, radix: 16, uppercase: true))"
        case .unexpectedMessageType(let type):
            "sent \(type), which only the other end sends"
        case .malformedPayload(let type, let reason, let offset, let size):
            "malformed \(type) payload: \(reason) at byte \(offset) of \(size)"
        case .outOfOrder(let type, let reason):
            "\(type) out of protocol order: \(reason)"
        }
    }
}

/// Why a payload failed to decode; turned into ``ProtocolError/malformedPayload(_:reason:offset:payloadSize:)``.
struct PayloadError: Error {
    var reason: String
    var offset: Int
}

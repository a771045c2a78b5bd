/// The frame layout: a 4-byte big-endian length, then that many bytes — a 1-byte
/// ``MessageType`` and the payload.
public enum Frame {
    /// Bytes of the length prefix.
    public static let lengthSize = 4
    /// The default maximum of the length (type byte plus payload): 1 MiB.
    public static let defaultMaximumLength = 1 << 20

    /// Encodes `message` as one complete frame.
    public static func encode(_ message: Message) -> [UInt8] {
        var w = BinaryWriter(reservingCapacity: 64)
        w.append(contentsOf: [0, 0, 0, 0])
        w.write(message.type.rawValue)
        MessageCodec.encodePayload(message, into: &w)
        w.patchBigEndian(UInt32(w.bytes.count - lengthSize), at: 0)
        return w.bytes
    }

    /// Appends the frame of `message` to `buffer` (several frames can go out in one write).
    public static func append(_ message: Message, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: encode(message))
    }

    /// Decodes the payload of a frame whose type byte is `typeByte`.
    public static func decode(typeByte: UInt8, payload: ArraySlice<UInt8>) throws(ProtocolError) -> Message {
        guard let type = MessageType(rawValue: typeByte) else { throw .unknownMessageType(typeByte) }
        return try MessageCodec.decodePayload(type, payload)
    }
}

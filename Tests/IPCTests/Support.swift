import SandglassIPC

/// Byte-level helpers shared by the IPC tests: hand-made frames and decoding shortcuts.
enum Wire {
    /// A frame with an explicit type byte and payload, length computed.
    static func frame(type: UInt8, payload: [UInt8]) -> [UInt8] {
        frame(length: UInt32(payload.count + 1), rest: [type] + payload)
    }

    /// A frame of `type` with a hand-made `payload`.
    static func frame(_ type: MessageType, payload: [UInt8]) -> [UInt8] {
        frame(type: type.rawValue, payload: payload)
    }

    /// A 4-byte big-endian length prefix followed by `rest`, whatever the length says.
    static func frame(length: UInt32, rest: [UInt8] = []) -> [UInt8] {
        header(length) + rest
    }

    /// The 4-byte big-endian length prefix.
    static func header(_ length: UInt32) -> [UInt8] {
        [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
    }

    /// The payload of `message` as `Frame.encode` writes it (the frame minus length and type).
    static func payload(of message: Message) -> [UInt8] {
        Array(Frame.encode(message).dropFirst(Frame.lengthSize + 1))
    }

    /// A payload written with ``BinaryWriter``.
    static func payload(_ body: (inout BinaryWriter) -> Void) -> [UInt8] {
        var w = BinaryWriter()
        body(&w)
        return w.bytes
    }

    /// Every message a fresh decoder yields from `bytes` appended in one piece.
    static func decodeAll(_ bytes: [UInt8], maximumLength: Int = Frame.defaultMaximumLength) throws(ProtocolError) -> [Message] {
        var decoder = FrameDecoder(maximumLength: maximumLength)
        decoder.append(bytes)
        var messages: [Message] = []
        while let message = try decoder.next() { messages.append(message) }
        return messages
    }

    /// The error a fresh decoder throws on `bytes`, or `nil` when it throws none.
    static func error(decoding bytes: [UInt8], maximumLength: Int = Frame.defaultMaximumLength) -> ProtocolError? {
        do {
            _ = try decodeAll(bytes, maximumLength: maximumLength)
            return nil
        } catch {
            return error
        }
    }

    /// The error decoding `payload` as a frame of `type` throws, or `nil`.
    static func error(_ type: MessageType, payload: [UInt8]) -> ProtocolError? {
        error(decoding: frame(type, payload: payload))
    }
}

/// A small deterministic generator (SplitMix64), so random split points are reproducible.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

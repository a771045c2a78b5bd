/// Turns a byte stream, read in pieces of any size, into messages.
///
/// ```swift
/// var decoder = FrameDecoder()
/// decoder.append(bytesJustRead)
/// while let message = try decoder.next() { handle(message) }
/// ```
///
/// An error is final: the stream is out of step and the peer must be dropped.
public struct FrameDecoder: Sendable {
    /// The largest length prefix accepted.
    public let maximumLength: Int
    /// The message types accepted; any other is refused at its type byte.
    public let accepted: Set<MessageType>
    private var buffer: [UInt8] = []
    private var start = 0
    private var failure: ProtocolError?

    /// A decoder of frames up to `maximumLength` bytes, of every type.
    public init(maximumLength: Int = Frame.defaultMaximumLength) {
        self.init(maximumLength: maximumLength, accepting: Set(MessageType.allCases))
    }

    /// A decoder of frames up to `maximumLength` bytes of the `accepted` types (the host's:
    /// ``MessageType/sentByExtensions``).
    public init(maximumLength: Int = Frame.defaultMaximumLength, accepting accepted: Set<MessageType>) {
        self.maximumLength = maximumLength
        self.accepted = accepted
    }

    /// Bytes received but not yet returned as messages.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Adds bytes read from the stream.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// Adds bytes read from the stream.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete message, `nil` when more bytes are needed.
    public mutating func next() throws(ProtocolError) -> Message? {
        if let failure { throw failure }
        do {
            return try decodeNext()
        } catch {
            failure = error
            throw error
        }
    }

    private mutating func decodeNext() throws(ProtocolError) -> Message? {
        let available = buffer.count - start
        guard available >= Frame.lengthSize else { return nil }
        var length = 0
        for i in 0..<Frame.lengthSize { length = length << 8 | Int(buffer[start + i]) }
        guard length <= maximumLength else { throw .oversizeFrame(length: length, limit: maximumLength) }
        guard length > 0 else { throw .emptyFrame }
        // The type byte is checked as soon as it arrives, before the payload.
        if available > Frame.lengthSize {
            guard let type = MessageType(rawValue: buffer[start + Frame.lengthSize]) else {
                throw .unknownMessageType(buffer[start + Frame.lengthSize])
            }
            guard accepted.contains(type) else { throw .unexpectedMessageType(type) }
        }
        guard available >= Frame.lengthSize + length else { return nil }
        let typeByte = buffer[start + Frame.lengthSize]
        let payloadStart = start + Frame.lengthSize + 1
        let payloadEnd = start + Frame.lengthSize + length
        let message = try Frame.decode(typeByte: typeByte, payload: buffer[payloadStart..<payloadEnd])
        start = payloadEnd
        compact()
        return message
    }

    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
            start = 0
        } else if start > 64 * 1024 && start * 2 > buffer.count {
            buffer.removeSubrange(0..<start)
            start = 0
        }
    }
}

// libFuzzer target: the IPC frame decoder, fed a byte stream cut into reads of the size the
// first byte picks. Every message it returns must survive a round trip: encoding it, decoding
// that, and encoding again gives the same bytes. A crash, a trap or a failed round trip is a
// finding. Built and run by `make fuzz`.
import SandglassIPC

@_cdecl("LLVMFuzzerTestOneInput")
public func frameDecoderFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // 0: the whole stream in one read; 1…31: reads of that many bytes.
    let step = Int(bytes[0] & 0x1F)
    let stream = bytes[1...]
    var decoder = FrameDecoder(maximumLength: 1 << 16)
    var offset = stream.startIndex
    while offset < stream.endIndex {
        let end = step == 0 ? stream.endIndex : min(stream.endIndex, offset + step)
        decoder.append(stream[offset..<end])
        offset = end
        do {
            while let message = try decoder.next() { checkRoundTrip(message) }
        } catch {
            // A protocol error is final: the decoder must keep saying so.
            do {
                _ = try decoder.next()
                fatalError("the decoder returned a message after a protocol error (\(error))")
            } catch {}
            return 0
        }
    }
    return 0
}

/// encode(decode(encode(m))) == encode(m).
func checkRoundTrip(_ message: Message) {
    let encoded = Frame.encode(message)
    var again = FrameDecoder(maximumLength: Int.max >> 1)
    again.append(encoded)
    guard let decoded = try? again.next() else {
        fatalError("\(message.type) encoded to \(encoded.count) bytes that do not decode")
    }
    let reencoded = Frame.encode(decoded)
    if reencoded != encoded {
        fatalError("\(message.type) does not survive a round trip: \(encoded.count) bytes, then \(reencoded.count)")
    }
}

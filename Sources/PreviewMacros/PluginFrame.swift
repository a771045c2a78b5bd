#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("PluginFrame reads and writes file descriptors with read(2) and write(2): add this platform's C library")
#endif

/// The framing of the compiler's plugin protocol: each message is a little-endian `UInt64` byte
/// count followed by that many bytes of UTF-8 JSON, on the plugin's standard input (from the
/// compiler) and standard output (to it).
enum PluginFrame {
    /// `payload` with its length header.
    static func framed(_ payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 + payload.count)
        var count = UInt64(payload.count)
        for _ in 0..<8 {
            bytes.append(UInt8(truncatingIfNeeded: count))
            count >>= 8
        }
        return bytes + payload
    }

    /// The byte count of a frame's 8-byte header.
    static func payloadCount(header: [UInt8]) -> UInt64 {
        header.prefix(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
}

/// Why a frame could not be read or written.
struct PluginFrameError: Error, CustomStringConvertible {
    var description: String
}

/// Reads frames from a file descriptor (the compiler's end of a pipe).
struct PluginFrameReader {
    let descriptor: Int32

    /// The next message's payload, or `nil` when the compiler is done: the pipe ended between
    /// messages, or it sent an empty message (which it does before it closes the pipe).
    func next() throws(PluginFrameError) -> [UInt8]? {
        guard let header = try readExactly(count: 8, what: "message header") else { return nil }
        let count = PluginFrame.payloadCount(header: header)
        if count == 0 { return nil }
        guard count <= 1 << 30 else {
            throw PluginFrameError(description: "a message of \(count) bytes announced: not a compiler plugin message")
        }
        guard let payload = try readExactly(count: Int(count), what: "message of \(count) bytes") else {
            throw PluginFrameError(description: "the input ended before the message of \(count) bytes")
        }
        return payload
    }

    /// Exactly `count` bytes; `nil` when the input ends before the first; an error when it ends
    /// after it.
    private func readExactly(count: Int, what: String) throws(PluginFrameError) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + filled, count - filled)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw PluginFrameError(description: "reading the \(what) from descriptor \(descriptor) failed: errno \(errno)")
            }
            if n == 0 {
                if filled == 0 { return nil }
                throw PluginFrameError(description: "the input ended after \(filled) of the \(count) bytes of the \(what)")
            }
            filled += n
        }
        return bytes
    }
}

/// Writes frames to a file descriptor (the compiler's end of a pipe).
struct PluginFrameWriter {
    let descriptor: Int32

    func send(_ payload: [UInt8]) throws(PluginFrameError) {
        let bytes = PluginFrame.framed(payload)
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress! + sent, bytes.count - sent)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw PluginFrameError(
                    description: "writing a reply of \(bytes.count) bytes to descriptor \(descriptor) failed: errno \(errno)")
            }
            sent += n
        }
    }
}

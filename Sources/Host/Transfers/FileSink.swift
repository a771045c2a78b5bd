import Foundation
import SandglassIPC

/// Writes a response body to a file: from the start, or appended to a partial body.
final class FileSink: HTTPAttempt.Sink, @unchecked Sendable {
    private let path: String
    private var handle: FileHandle?
    private let onBytes: @Sendable (Int64, Int64) -> Void
    /// Hears the response before the first byte is written (to journal its validator).
    var onResponse: (@Sendable (HTTPResponsePayload) async -> Void)?
    /// Bytes in the file so far.
    private(set) var written: Int64
    private var expected: Int64 = -1

    /// A sink writing to `path`, which holds `existing` bytes of an earlier attempt; `onBytes`
    /// hears (bytes in the file, expected total) after every chunk.
    init(path: String, existing: Int64, onBytes: @escaping @Sendable (Int64, Int64) -> Void) {
        self.path = path
        self.written = existing
        self.onBytes = onBytes
    }

    func begin(_ response: HTTPResponsePayload, resumed: Bool) async throws {
        if !resumed {
            written = 0
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        } else if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(written))
        try handle.seekToEnd()
        self.handle = handle
        expected = response.expectedContentLength
        await onResponse?(response)
        onBytes(written, expected)
    }

    func write(_ bytes: [UInt8]) async throws {
        guard let handle else { return }
        try handle.write(contentsOf: bytes)
        written += Int64(bytes.count)
        onBytes(written, expected)
    }

    /// Closes the file.
    func close() {
        try? handle?.close()
        handle = nil
    }
}

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
    /// What the extension it downloads for may hold (nil: no bound); a write past it throws
    /// ``DownloadOverQuota`` unmade, as does a response that announces more.
    var quota: DownloadLedger.Quota?
    private var expected: Int64 = -1

    /// A sink writing to `path`, which holds `existing` bytes of an earlier attempt; `onBytes`
    /// hears (bytes in the file, expected total) after every chunk.
    init(path: String, existing: Int64, onBytes: @escaping @Sendable (Int64, Int64) -> Void) {
        self.path = path
        self.written = existing
        self.onBytes = onBytes
    }

    func begin(_ response: HTTPResponsePayload, resumed: Bool) async throws {
        if let quota, response.expectedContentLength > quota.bytes {
            throw DownloadOverQuota(
                description:
                    "resource exceeds maximum size (the response announces \(response.expectedContentLength) bytes, over the \(quota.bytes) that \(quota.bundle)'s container may hold)"
            )
        }
        if !resumed {
            written = 0
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        } else if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(written))
        try handle.seekToEnd()
        // The announced length is held from the start: of two downloads that would not fit
        // together, the second is refused at its response, not halfway through both.
        if let quota, let refusal = quota.admit(path, size: max(written, response.expectedContentLength)) {
            try? handle.close()
            _ = quota.admit(path, size: written)
            throw DownloadOverQuota(description: refusal)
        }
        self.handle = handle
        expected = response.expectedContentLength
        await onResponse?(response)
        onBytes(written, expected)
    }

    func write(_ bytes: [UInt8]) async throws {
        guard let handle else { return }
        // Held at the announced length until the end, or at what it grew past it.
        if let quota, let refusal = quota.admit(path, size: max(written + Int64(bytes.count), expected)) {
            throw DownloadOverQuota(description: refusal)
        }
        try handle.write(contentsOf: bytes)
        written += Int64(bytes.count)
        onBytes(written, expected)
    }

    /// Closes the file; what it holds is charged at what it holds, not at what was announced.
    func close() {
        guard let handle else { return }
        try? handle.close()
        self.handle = nil
        _ = quota?.admit(path, size: written)
    }
}

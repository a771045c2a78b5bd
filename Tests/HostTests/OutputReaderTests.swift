import CSandbox
import Foundation
import Glibc
import Synchronization
import Testing

@testable import SandglassHost

/// An output reader on a loop of its own, and what it heard.
actor OutputReaderOnLoop {
    nonisolated let loop: EventLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }
    nonisolated let lines = LineCount()
    private var reader: OutputReader?

    init() throws { loop = try EventLoop(name: "output-reader") }

    func start(_ fd: Int32) {
        let lines = lines
        reader = OutputReader(fd: fd, loop: loop) { line in
            lines.value.withLock { $0 += 1 }
            lines.written.withLock { $0 += JSONValue.writtenBytes(line) }
        }
    }

    func finish() { reader?.finish() }
}

/// Lines heard, counted from the loop's thread.
final class LineCount: Sendable {
    let value = Mutex(0)
    /// The bytes the lines take as the event log writes them.
    let written = Mutex(0)
    var count: Int { value.withLock { $0 } }
}

/// An extension's standard output, as the host reads it: a flood of empty lines is not a flood
/// of events.
@Suite("Output reader")
struct OutputReaderTests {
    private func pipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        #expect(sg_pipe(&fds) == 0)
        _ = sg_set_nonblocking(fds[0])
        return (fds[0], fds[1])
    }

    /// `bytes` written to an output reader's pipe from a thread of their own (the loop reads
    /// meanwhile), then the rest read to the end; the reader, finished.
    private func read(_ bytes: [UInt8]) async throws -> OutputReaderOnLoop {
        let (readEnd, writeEnd) = pipe()
        let reader = try OutputReaderOnLoop()
        await reader.start(readEnd)
        let done = DispatchSemaphore(value: 0)
        let writer = Thread {
            defer {
                Glibc.close(writeEnd)
                done.signal()
            }
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { Glibc.write(writeEnd, $0.baseAddress, $0.count) }
                if n > 0 { offset += n } else if errno != EAGAIN && errno != EINTR { return }
            }
        }
        writer.start()
        await withCheckedContinuation { c in
            DispatchQueue.global().async {
                done.wait(); c.resume()
            }
        }
        await reader.finish()
        reader.loop.stop()
        return reader
    }

    @Test("a megabyte of empty lines is at most a sixty-fourth as many lines")
    func emptyLinesCost() async throws {
        let reader = try await read([UInt8](repeating: UInt8(ascii: "\n"), count: 1 << 20))
        let lines = reader.lines.count
        #expect(lines > 1_000 && lines <= (1 << 20) / OutputReader.minimumLineCost + 2, "\(lines) lines")
    }

    @Test("a megabyte of control characters is at most a megabyte of log as written (each takes six bytes there)")
    func controlCharactersCost() async throws {
        let line = [UInt8](repeating: 0x01, count: 4000) + [UInt8(ascii: "\n")]
        let reader = try await read(Array([[UInt8]](repeating: line, count: 262).joined())) // 1 MiB
        let written = reader.lines.written.withLock { $0 }
        #expect(written <= (1 << 20) + 6 * 4096 + 256, "\(reader.lines.count) lines took \(written) bytes as written")
    }
}

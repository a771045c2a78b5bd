import SandglassIPC
import Synchronization

/// The extension's end of the IPC socket: whole frames out under a lock, bytes in on the
/// reader thread.
///
/// The descriptor is closed by the reader thread when it stops reading, under the write lock,
/// so a writer never writes to a number the process has reused.
final class FrameChannel: Sendable {
    /// What happened to a frame.
    enum WriteOutcome: Sendable {
        case written
        /// The channel is closed; the frame was dropped.
        case closed
        case failed(Errno)
    }

    let fd: Int32
    private let isClosed = Mutex(false)

    init(fd: Int32) {
        self.fd = fd
    }

    /// Writes one whole frame.
    func write(_ frame: [UInt8]) -> WriteOutcome {
        isClosed.withLock { closed in
            if closed { return .closed }
            switch Syscalls.writeFully(fd, frame) {
            case .success: return .written
            case .failure(let error): return .failed(error)
            }
        }
    }

    /// Reads what is available, blocking; 0 at end of stream. Descriptors the host sent with
    /// the bytes (with the first byte of their frame) are appended to `descriptors`; the
    /// caller owns them. Only the reader thread calls this.
    func read(into buffer: UnsafeMutableRawBufferPointer, descriptors: inout [Int32]) -> Result<Int, Errno> {
        Syscalls.receive(fd, into: buffer, descriptors: &descriptors)
    }

    /// Wakes the reader thread with end of stream; later writes fail.
    func shutdown() {
        isClosed.withLock { closed in
            if !closed { Syscalls.shutdownBothWays(fd) }
        }
    }

    /// Closes the descriptor; later writes are dropped. Only the reader thread calls this.
    func close() {
        isClosed.withLock { closed in
            if !closed {
                closed = true
                Syscalls.closeDescriptor(fd)
            }
        }
    }
}

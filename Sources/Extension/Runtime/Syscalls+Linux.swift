// @preconcurrency: C's `stdout` is a global variable, which Swift 6 refuses to read otherwise.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("The Sandglass SDK needs a C library with POSIX sockets")
#endif

/// An `errno` value and its `strerror` text.
struct Errno: Error, CustomStringConvertible {
    let code: Int32

    init(_ code: Int32) {
        self.code = code
    }

    /// `"errno 32 (Broken pipe)"`.
    var description: String { "errno \(code) (\(String(cString: strerror(code))))" }
}

/// The system calls the SDK makes, each retried on `EINTR`.
enum Syscalls {
    /// CLOCK_MONOTONIC in nanoseconds (not the virtual clock: the shim leaves it alone). The
    /// corresponding C function is `clock_gettime`.
    static func monotonicNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Bytes read, 0 at end of stream. The corresponding C function is `read`.
    static func readSome(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        while true {
            let count = read(fd, buffer.baseAddress, buffer.count)
            if count >= 0 { return .success(count) }
            let code = errno
            if code != EINTR { return .failure(Errno(code)) }
        }
    }

    /// Bytes read, 0 at end of stream, with the descriptors that came with them (`SCM_RIGHTS`,
    /// close-on-exec) appended to `descriptors`. The corresponding C function is `recvmsg`;
    /// `read` when `fd` is not a socket.
    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, descriptors: inout [Int32]) -> Result<Int, Errno> {
        // Room for 16 descriptors: CMSG_SPACE(16 * 4).
        var control = [UInt8](repeating: 0, count: MemoryLayout<cmsghdr>.size + 64)
        while true {
            var iov = iovec(iov_base: buffer.baseAddress, iov_len: buffer.count)
            var controlLength = 0
            let count = control.withUnsafeMutableBytes { ctl in
                withUnsafeMutablePointer(to: &iov) { iovPointer in
                    var message = msghdr()
                    message.msg_iov = iovPointer
                    message.msg_iovlen = 1
                    message.msg_control = ctl.baseAddress
                    message.msg_controllen = ctl.count
                    let count = recvmsg(fd, &message, Int32(MSG_CMSG_CLOEXEC))
                    controlLength = count >= 0 ? Int(message.msg_controllen) : 0
                    return count
                }
            }
            if count >= 0 {
                control.withUnsafeBytes { ctl in
                    descriptors += rightsDescriptors(in: UnsafeRawBufferPointer(rebasing: ctl[0..<min(controlLength, ctl.count)]))
                }
                return .success(count)
            }
            let code = errno
            if code == ENOTSOCK { return readSome(fd, into: buffer) }
            if code != EINTR { return .failure(Errno(code)) }
        }
    }

    /// The descriptors of the `SCM_RIGHTS` messages in a `recvmsg` control buffer (the layout
    /// of `struct cmsghdr`, walked as `CMSG_NXTHDR` does).
    private static func rightsDescriptors(in control: UnsafeRawBufferPointer) -> [Int32] {
        let header = MemoryLayout<cmsghdr>.size
        let alignment = MemoryLayout<Int>.size
        var descriptors: [Int32] = []
        var offset = 0
        while offset + header <= control.count {
            let length = Int(control.loadUnaligned(fromByteOffset: offset + MemoryLayout.offset(of: \cmsghdr.cmsg_len)!, as: Int.self))
            let level = control.loadUnaligned(fromByteOffset: offset + MemoryLayout.offset(of: \cmsghdr.cmsg_level)!, as: Int32.self)
            let type = control.loadUnaligned(fromByteOffset: offset + MemoryLayout.offset(of: \cmsghdr.cmsg_type)!, as: Int32.self)
            guard length >= header, offset + length <= control.count else { break }
            if level == SOL_SOCKET && type == Int32(SCM_RIGHTS) {
                let dataStart = offset + (header + alignment - 1) / alignment * alignment
                var at = dataStart
                while at + 4 <= offset + length {
                    descriptors.append(control.loadUnaligned(fromByteOffset: at, as: Int32.self))
                    at += 4
                }
            }
            offset += (length + alignment - 1) / alignment * alignment
        }
        return descriptors
    }

    /// Writes every byte, through partial writes. The corresponding C functions are `send`
    /// with `MSG_NOSIGNAL` (no `SIGPIPE` when the peer is gone) and `write`, used when `fd`
    /// is not a socket.
    static func writeFully(_ fd: Int32, _ bytes: [UInt8]) -> Result<Void, Errno> {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return .success(()) }
            var offset = 0
            var isSocket = true
            while offset < buffer.count {
                let remaining = buffer.count - offset
                let count =
                    isSocket
                    ? send(fd, base + offset, remaining, Int32(MSG_NOSIGNAL))
                    : write(fd, base + offset, remaining)
                if count >= 0 {
                    offset += count
                    continue
                }
                let code = errno
                if code == EINTR { continue }
                if code == ENOTSOCK && isSocket {
                    isSocket = false
                    continue
                }
                return .failure(Errno(code))
            }
            return .success(())
        }
    }

    /// Shuts `fd` down both ways, so a thread blocked reading it sees end of stream.
    /// The corresponding C function is `shutdown`.
    static func shutdownBothWays(_ fd: Int32) {
        _ = shutdown(fd, Int32(SHUT_RDWR))
    }

    /// The corresponding C function is `close`.
    static func closeDescriptor(_ fd: Int32) {
        _ = close(fd)
    }

    /// Whether `fd` is open. The corresponding C function is `fcntl` with `F_GETFD`.
    static func isOpen(_ fd: Int32) -> Bool {
        fcntl(fd, F_GETFD) != -1
    }

    /// Ignores `SIGPIPE` for the process. The corresponding C function is `signal`.
    static func ignoreBrokenPipe() {
        _ = signal(SIGPIPE, SIG_IGN)
    }

    /// Files and directories the process makes are open to its group (umask 007): in an app
    /// group's container, the group's other extensions read and write them.
    static func shareWithGroup() {
        _ = umask(0o007)
    }

    /// Makes standard output line-buffered (on a pipe stdio buffers whole blocks): each line an
    /// extension prints reaches the host's event log when printed, not lost with the buffer
    /// when the process is SIGKILLed. The corresponding C function is `setvbuf`.
    static func lineBufferStandardOutput() {
        _ = setvbuf(stdout, nil, _IOLBF, 0)
    }

    /// Writes `text` to standard error, unbuffered: the SDK's channel for fatal local problems.
    static func writeStandardError(_ text: String) {
        _ = writeFully(2, Array(text.utf8))
    }

    /// The size of the file at `path`, `nil` when it cannot be read. The corresponding C
    /// function is `stat` (FileManager's `attributesOfItem` also looks the owner and group up in
    /// the user database: NSS, a library loaded, files read — on a cold start's path).
    static func fileSize(_ path: String) -> Int64? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int64(status.st_size)
    }

    /// Removes the file at `path`, ignoring failure. The corresponding C function is `unlink`.
    static func removeFile(_ path: String) {
        _ = unlink(path)
    }

    /// Runs `body` on a new, detached thread. The corresponding C function is `pthread_create`
    /// (Foundation's `Thread` took a cold process 0.2–0.3 ms to start one, on the way to its
    /// first request).
    static func startThread(_ body: @escaping @Sendable () -> Void) -> Result<Void, Errno> {
        let start = Unmanaged.passRetained(ThreadStart(body)).toOpaque()
        var thread = pthread_t()
        let code = pthread_create(&thread, nil, runThreadStart, start)
        guard code == 0 else {
            Unmanaged<ThreadStart>.fromOpaque(start).release()
            return .failure(Errno(code))
        }
        _ = pthread_detach(thread)
        return .success(())
    }

    /// Ends the process. The corresponding C function is `exit`.
    static func exitProcess(_ status: Int32) -> Never {
        exit(status)
    }
}

/// What a thread made by ``Syscalls/startThread(_:)`` runs.
private final class ThreadStart: Sendable {
    let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }
}

/// The entry point of a thread made by ``Syscalls/startThread(_:)``.
private func runThreadStart(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged<ThreadStart>.fromOpaque(raw!).takeRetainedValue().body()
    return nil
}

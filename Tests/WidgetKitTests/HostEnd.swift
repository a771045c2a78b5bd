import SandglassIPC
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A failure of the test's host side: a timeout, a closed socket, a failed syscall.
struct HostEndError: Error, CustomStringConvertible {
    let description: String
}

/// The host's end of a real `socketpair(AF_UNIX, SOCK_STREAM)`: the test plays the host with
/// SandglassIPC, waiting for frames with `poll(2)` and a deadline, never with sleeps.
final class HostEnd {
    /// How long a test waits for a frame it expects: long enough for an in-process runtime
    /// starved by the whole suite on two cores (one waited over 10 s for its `attachSession`);
    /// a passing test never waits it out.
    static let patience: Double = 30

    let fd: Int32
    private var decoder = FrameDecoder()
    private var isClosed = false

    /// Creates a socketpair; returns the host end and the extension's descriptor.
    static func makePair() throws -> (host: HostEnd, extensionFD: Int32) {
        var fds: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &fds) == 0 else {
            throw HostEndError(description: "socketpair failed: errno \(errno)")
        }
        return (HostEnd(fd: fds[0]), fds[1])
    }

    private init(fd: Int32) {
        self.fd = fd
    }

    deinit {
        close()
    }

    /// Sends one message as a frame.
    func send(_ message: Message) throws {
        try sendBytes(Frame.encode(message))
    }

    /// Sends one message with a read-only descriptor of the file at `path` attached to its first
    /// byte (`SCM_RIGHTS`), as the host sends a finished download's body.
    func send(_ message: Message, passingFileAt path: String) throws {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { throw HostEndError(description: "open \(path) failed: errno \(errno)") }
        defer { Glibc.close(file) }
        var bytes = Frame.encode(message)
        let header = MemoryLayout<cmsghdr>.size
        var control = [UInt8](repeating: 0, count: header + 8)
        control.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: header + 4, toByteOffset: MemoryLayout.offset(of: \cmsghdr.cmsg_len)!, as: Int.self)
            raw.storeBytes(of: SOL_SOCKET, toByteOffset: MemoryLayout.offset(of: \cmsghdr.cmsg_level)!, as: Int32.self)
            raw.storeBytes(of: Int32(SCM_RIGHTS), toByteOffset: MemoryLayout.offset(of: \cmsghdr.cmsg_type)!, as: Int32.self)
            raw.storeBytes(of: file, toByteOffset: header, as: Int32.self)
        }
        let sent = bytes.withUnsafeMutableBytes { data in
            control.withUnsafeMutableBytes { ctl in
                var iov = iovec(iov_base: data.baseAddress, iov_len: data.count)
                return withUnsafeMutablePointer(to: &iov) { iovPointer in
                    var header = msghdr()
                    header.msg_iov = iovPointer
                    header.msg_iovlen = 1
                    header.msg_control = ctl.baseAddress
                    header.msg_controllen = ctl.count
                    return sendmsg(fd, &header, Int32(MSG_NOSIGNAL))
                }
            }
        }
        guard sent > 0 else { throw HostEndError(description: "sendmsg failed: errno \(errno)") }
        if sent < bytes.count { try sendBytes(Array(bytes[sent...])) }
    }

    /// Sends raw bytes, for frames that break the protocol.
    func sendBytes(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw HostEndError(description: "send failed: errno \(errno)")
            }
            offset += count
        }
    }

    /// The next message from the extension, waiting at most `seconds`.
    func receive(within seconds: Double = HostEnd.patience) throws -> Message {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let message = try decoder.next() {
                return message
            }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else {
                throw HostEndError(description: "no frame from the extension within \(seconds) s")
            }
            var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(max(1, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000))
            let ready = poll(&pollFD, 1, milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                throw HostEndError(description: "poll failed: errno \(errno)")
            }
            if ready == 0 { continue }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw HostEndError(description: "read failed: errno \(errno)")
            }
            if count == 0 {
                throw HostEndError(description: "the extension closed the socket")
            }
            decoder.append(buffer[0..<count])
        }
    }

    /// Whether the extension closed its end: end of stream within `seconds`, after any frames.
    func receivesEndOfStream(within seconds: Double = HostEnd.patience) -> Bool {
        do {
            while true { _ = try receive(within: seconds) }
        } catch {
            return (error as? HostEndError)?.description == "the extension closed the socket"
        }
    }

    /// Closes the host end: the extension sees end of stream.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(fd)
    }
}

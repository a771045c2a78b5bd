import CSandbox
import Glibc
import SandglassIPC

/// The host's end of an extension's IPC socket: frames in through a ``FrameDecoder``, frames
/// out through a buffer that drains when the socket is writable. Confined to the loop thread.
///
/// Each frame is written as it is sent, unless the channel holds its output to the end of the
/// loop's turn (``holdUntilEndOfTurn()``).
final class Channel {
    enum Event {
        case message(Message)
        case violation(ProtocolError)
        case closed
        /// The peer has not read for so long that more than ``maximumOutbound`` bytes wait for
        /// it: told once, at the end of the turn of the loop that queued past the limit.
        case overflowed(pending: Int)
    }

    let fd: Int32
    private let loop: EventLoop
    private var decoder: FrameDecoder
    private var outbound: [UInt8] = []
    private var outboundStart = 0
    /// Descriptors to pass with the first byte of their frame: (offset in `outbound`, fd),
    /// in order; each stays open until it is sent or the channel closes.
    private var outboundDescriptors: [(offset: Int, fd: Int32)] = []
    private var watchingWrites = false
    /// Output waits for the end of this turn of the loop.
    private var isHolding = false
    private var isOpen = true
    /// An overflow is to be told (or was: the process is killed for it).
    private var overflowPending = false
    /// A frame was refused for the overflow: it is told even if the peer reads the rest meanwhile.
    private var refusedWhileOver = false
    /// Over this many unsent bytes, ``send(_:)`` says the peer is not reading.
    let maximumOutbound: Int
    private let onEvent: (Event) -> Void
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// The process on the deadline thread, told while this channel reads and handles input.
    var killTarget: DeadlineKiller.Target?

    /// Bytes read from the peer, in all.
    private(set) var bytesReceived = 0

    /// Bytes queued but not yet written.
    var pendingOutput: Int { outbound.count - outboundStart }
    /// Bytes the output buffer holds: what waits, and what was written but not yet let go of.
    var bufferedOutput: Int { outbound.count }

    init(fd: Int32, loop: EventLoop, maximumFrameLength: Int, maximumOutbound: Int = 8 << 20, onEvent: @escaping (Event) -> Void) {
        self.fd = fd
        self.loop = loop
        self.decoder = FrameDecoder(maximumLength: maximumFrameLength, accepting: MessageType.sentByExtensions)
        self.maximumOutbound = maximumOutbound
        self.onEvent = onEvent
        loop.register(fd, events: UInt32(SG_EPOLLIN | SG_EPOLLRDHUP)) { [unowned self] mask in self.handle(mask) }
    }

    /// Queues `message` and writes as much as the socket takes now (or, held, at the end of the
    /// turn). Returns false when the peer has not read for so long that the buffer is over its
    /// limit (or the channel is closed); past the limit, the message is not queued.
    @discardableResult
    func send(_ message: Message) -> Bool {
        send(message, passing: nil)
    }

    /// Queues `message` with `descriptor` attached to its first byte (`SCM_RIGHTS`), which the
    /// channel owns from now: closed once sent, or when the channel closes first.
    @discardableResult
    func send(_ message: Message, passing descriptor: Int32?) -> Bool {
        send(frame: Frame.encode(message), passing: descriptor)
    }

    /// Queues an encoded frame (``Frame/encode(_:)``), as ``send(_:passing:)`` does a message.
    @discardableResult
    func send(frame: [UInt8], passing descriptor: Int32?) -> Bool {
        guard isOpen else {
            if let descriptor { Glibc.close(descriptor) }
            return false
        }
        if pendingOutput > maximumOutbound { flush() }
        guard pendingOutput <= maximumOutbound else {
            // The peer reads nothing: however many frames the host answers its requests with in
            // this turn, what waits stays at the limit and one frame past it. The process is
            // killed for it at the end of the turn; an event not sent is delivered again later.
            if let descriptor { Glibc.close(descriptor) }
            refusedWhileOver = true
            tellOverflow()
            return false
        }
        if let descriptor { outboundDescriptors.append((outbound.count, descriptor)) }
        outbound.append(contentsOf: frame)
        if !isHolding || pendingOutput >= Self.writeWhileHolding { flush() }
        guard pendingOutput <= maximumOutbound else {
            tellOverflow()
            return false
        }
        return true
    }

    /// Tells ``Event/overflowed(pending:)`` at the end of this turn (not from inside the
    /// `send` of whoever queued the frame), once, if the channel is still open and over then.
    private func tellOverflow() {
        guard !overflowPending else { return }
        overflowPending = true
        loop.atEndOfTurn { [weak self] in
            guard let self, isOpen else { return }
            // Drained meanwhile, and nothing refused: a later overflow is told again.
            guard pendingOutput > maximumOutbound || refusedWhileOver else {
                overflowPending = false
                return
            }
            onEvent(.overflowed(pending: pendingOutput))
        }
    }

    /// Holds what is sent until this turn of the loop ends, then writes it in one send where
    /// it can: the host welcomes a launching extension, and the activation waiting for the
    /// launch resumes and sends its request, in the same turn — so the extension finds both in
    /// its first read, one wake-up instead of two.
    func holdUntilEndOfTurn() {
        guard isOpen, !isHolding else { return }
        isHolding = true
        loop.atEndOfTurn { [weak self] in
            guard let self else { return }
            isHolding = false
            if isOpen { flush() }
        }
    }

    /// Bytes read from one socket in one turn of the loop, at most.
    static let maximumReadPerTurn = 256 * 1024

    /// Queued bytes written at once even while held.
    private static let writeWhileHolding = 64 * 1024

    /// Stops watching and closes the socket, after writing what it takes of the frames queued.
    func close() {
        guard isOpen else { return }
        flush()
        isOpen = false
        loop.unregister(fd)
        Glibc.close(fd)
        for pending in outboundDescriptors { Glibc.close(pending.fd) }
        outboundDescriptors.removeAll()
    }

    private func handle(_ mask: UInt32) {
        if mask & UInt32(SG_EPOLLOUT) != 0 { flush() }
        if mask & UInt32(SG_EPOLLIN | SG_EPOLLHUP | SG_EPOLLRDHUP | SG_EPOLLERR) != 0 {
            // Told before the read: a reply read and being handled is not killed at its deadline.
            killTarget?.reading(true)
            defer { killTarget?.reading(false) }
            readAvailable()
        }
    }

    /// Reads what the socket holds, up to ``maximumReadPerTurn`` bytes: the rest waits for the
    /// loop's next turn (epoll reports the socket readable again), so one extension's flood
    /// never keeps the loop from its timers and the other extensions.
    private func readAvailable() {
        var read = 0
        while isOpen, read < Self.maximumReadPerTurn {
            let n = readBuffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                bytesReceived += n
                readBuffer.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                do {
                    while isOpen, let message = try decoder.next() { onEvent(.message(message)) }
                } catch {
                    onEvent(.violation(error))
                    return
                }
                if n < readBuffer.count { return }
                read += n
            } else if n == 0 {
                onEvent(.closed)
                return
            } else {
                if errno == EINTR { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK { onEvent(.closed) }
                return
            }
        }
    }

    private func flush() {
        while outboundStart < outbound.count {
            // MSG_NOSIGNAL: an extension that died before it was reaped must not take the host
            // with it (SIGPIPE); the error is left for the reaping to explain. A descriptor goes
            // with the first byte of its frame: a send stops short of the next one's frame.
            let attached = outboundDescriptors.first.flatMap { $0.offset == outboundStart ? $0.fd : nil }
            let nextAttachment = outboundDescriptors.first { $0.offset > outboundStart }?.offset ?? outbound.count
            let n = outbound.withUnsafeBytes {
                sg_send_with_descriptor(fd, $0.baseAddress! + outboundStart, UInt(nextAttachment - outboundStart), attached ?? -1)
            }
            if n > 0 {
                if let attached {
                    Glibc.close(attached)
                    outboundDescriptors.removeFirst()
                }
                outboundStart += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        if outboundStart == outbound.count {
            outbound.removeAll(keepingCapacity: outbound.capacity <= 64 * 1024)
            outboundStart = 0
        } else if outboundStart > 64 * 1024 && outboundStart * 2 > outbound.count {
            // What was written goes even while some still waits: a peer that always leaves a
            // little unread must not keep everything the host ever sent it.
            outbound.removeSubrange(0..<outboundStart)
            for index in outboundDescriptors.indices { outboundDescriptors[index].offset -= outboundStart }
            outboundStart = 0
        }
        let wantWrites = outboundStart < outbound.count
        if wantWrites != watchingWrites, isOpen {
            watchingWrites = wantWrites
            loop.modify(fd, events: UInt32(SG_EPOLLIN | SG_EPOLLRDHUP) | (wantWrites ? UInt32(SG_EPOLLOUT) : 0))
        }
    }
}

import CSandbox
import Foundation
import Glibc

/// The throughput baseline: `peers` echo children (`sandglass bench-echo`), each on its own
/// socketpair with `inFlight` requests outstanding, served by one thread with epoll — request
/// bytes out, reply bytes in, nothing else. Round trips per second is the ceiling one loop thread
/// reaches on this machine when it only moves the bytes.
enum RawEchoFleet {
    static func measure(
        peers: Int, inFlight: Int, requestSize: Int, replySize: Int, duration: Duration
    ) async throws -> (roundTrips: Int, seconds: Double) {
        try await onDedicatedThread {
            try run(peers: peers, inFlight: inFlight, requestSize: requestSize, replySize: replySize, duration: duration)
        }
    }

    private final class Peer {
        let fd: Int32
        let child: RawChild
        var received = 0
        var owed = 0

        init(fd: Int32, child: RawChild) {
            self.fd = fd
            self.child = child
        }
    }

    private static func run(
        peers count: Int, inFlight: Int, requestSize: Int, replySize: Int, duration: Duration
    ) throws -> (roundTrips: Int, seconds: Double) {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let epoll = sg_epoll_create()
        guard epoll >= 0 else { throw BadInput("epoll_create failed: errno \(-epoll)") }
        defer { close(epoll) }
        var peers: [Int32: Peer] = [:]
        defer {
            for peer in peers.values { close(peer.fd) }
            for peer in peers.values { peer.child.wait() }
        }
        for _ in 0..<count {
            var sockets: [Int32] = [-1, -1]
            guard sg_socketpair_stream(&sockets) == 0 else { throw BadInput("socketpair failed: errno \(errno)") }
            let child = try RawChild.spawn(executable, arguments: ["bench-echo", String(requestSize), String(replySize)], stdin: sockets[1])
            close(sockets[1])
            _ = sg_set_nonblocking(sockets[0])
            peers[sockets[0]] = Peer(fd: sockets[0], child: child)
            _ = sg_epoll_add(epoll, sockets[0], UInt32(SG_EPOLLIN))
        }
        let request = [UInt8](repeating: 0x5A, count: requestSize)
        var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
        func send(_ peer: Peer, _ n: Int) {
            // Small writes to a socket with room: they complete (a short write would be owed).
            for _ in 0..<n {
                let written = request.withUnsafeBytes { Glibc.send(peer.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if written != requestSize { peer.owed += 1 }
            }
        }
        // Warm up: every peer answers once before the window opens.
        for peer in peers.values {
            send(peer, 1)
            var reply = [UInt8](repeating: 0, count: replySize)
            _ = fcntl(peer.fd, F_SETFL, fcntl(peer.fd, F_GETFL) & ~O_NONBLOCK)
            _ = RawRoundTrip.readAll(peer.fd, &reply)
            _ = sg_set_nonblocking(peer.fd)
        }
        var completed = 0
        for peer in peers.values { send(peer, inFlight) }
        var events = [sg_event](repeating: sg_event(), count: 256)
        let started = sg_monotonic_ns()
        let end = started + UInt64(duration.components.seconds) * 1_000_000_000 + UInt64(duration.components.attoseconds / 1_000_000_000)
        while sg_monotonic_ns() < end {
            let n = events.withUnsafeMutableBufferPointer { sg_epoll_wait(epoll, $0.baseAddress, Int32($0.count), 10) }
            for i in 0..<max(Int(n), 0) {
                guard let peer = peers[events[i].fd] else { continue }
                while true {
                    let got = readBuffer.withUnsafeMutableBytes { read(peer.fd, $0.baseAddress, $0.count) }
                    if got <= 0 { break }
                    peer.received += got
                    let replies = peer.received / replySize
                    peer.received -= replies * replySize
                    completed += replies
                    let owed = peer.owed
                    peer.owed = 0
                    send(peer, replies + owed)
                }
            }
        }
        let seconds = Double(sg_monotonic_ns() - started) / 1e9
        return (completed, seconds)
    }
}

import Foundation
import Glibc
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// The daemon's control socket: a Unix stream socket, mode 0600 (only its owner may connect),
/// one JSON request per connection answered by one JSON line. Stops accepting on graceful
/// shutdown, finishes the requests in progress, and removes the socket file.
public final class ControlServer: Service, Sendable {
    /// The socket's path.
    public let path: String
    private let server: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
    private let handler: @Sendable (ControlRequest) async -> ControlResponse
    private let refused: @Sendable (pid_t?, String) async -> Void
    private let logger: Logger

    /// The longest request line accepted.
    static let maximumRequestLength = 64 * 1024
    /// How long a client has to send its request line before the connection is closed.
    static let requestTimeout: TimeAmount = .seconds(10)

    private init(
        path: String, server: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>,
        handler: @escaping @Sendable (ControlRequest) async -> ControlResponse,
        refused: @escaping @Sendable (pid_t?, String) async -> Void, logger: Logger
    ) {
        self.path = path
        self.server = server
        self.handler = handler
        self.refused = refused
        self.logger = logger
    }

    /// Binds the socket at `path` with mode 0600. A stale socket file (no one listening) is
    /// replaced; a live one is an error, as is any other file there.
    ///
    /// Bind before other threads create files: the process's umask is narrowed while binding.
    /// A peer that is not served (``ControlPeer``) is answered with the reason and told to
    /// `refused` (with its pid when the kernel gave one) — the daemon's own extensions among them.
    public static func bind(
        path: String, logger: Logger = Logger(label: "sandglass.control"),
        refused: @escaping @Sendable (_ pid: pid_t?, _ reason: String) async -> Void = { _, _ in },
        handler: @escaping @Sendable (ControlRequest) async -> ControlResponse
    ) async throws -> ControlServer {
        guard path.utf8.count <= ControlSocket.maximumPathLength else {
            throw ControlError(
                description:
                    "the control socket path \(path) is longer than \(ControlSocket.maximumPathLength) bytes; choose a shorter --control")
        }
        try removeStaleSocket(at: path)
        let previous = umask(0o177)
        defer { umask(previous) }
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(unixDomainSocketPath: path) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        // Made 0600 by the umask already; made sure of without following a link swapped in.
        guard fchmodat(AT_FDCWD, path, 0o600, AT_SYMLINK_NOFOLLOW) == 0 else {
            try? await server.channel.close()
            throw ControlError(
                description: "cannot make the control socket \(path) private (chmod 0600): \(String(cString: strerror(errno)))")
        }
        return ControlServer(path: path, server: server, handler: handler, refused: refused, logger: logger)
    }

    /// Serves connections until graceful shutdown.
    public func run() async throws {
        try await acceptConnections(of: server) { await self.serve($0, requested: $1) }
        unlink(path)
    }

    private func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>, requested: @escaping @Sendable () -> Void) async {
        // A client that connects and says nothing is closed; the timer ends with the request line.
        let channel = connection.channel
        let idle = channel.eventLoop.scheduleTask(in: Self.requestTimeout) { channel.close(promise: nil) }
        defer { idle.cancel() }
        if let (peer, reason) = await ControlPeer.refusal(of: channel) {
            logger.warning("control connection refused: \(reason)")
            await refused(peer?.pid, reason)
            try? await connection.executeThenClose { _, outbound in
                try await outbound.write(ByteBuffer(bytes: Self.encode(ControlResponse(ok: false, message: "refused: \(reason)"))))
            }
            return
        }
        do {
            try await connection.executeThenClose { inbound, outbound in
                var pending = ByteBuffer()
                for try await chunk in inbound {
                    pending.writeImmutableBuffer(chunk)
                    if let newline = pending.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
                        idle.cancel()
                        requested()
                        let line = pending.getSlice(at: pending.readerIndex, length: newline - pending.readerIndex) ?? ByteBuffer()
                        let response = await self.respond(to: Data(line.readableBytesView))
                        try await outbound.write(ByteBuffer(bytes: response))
                        return
                    }
                    if pending.readableBytes > Self.maximumRequestLength {
                        try await outbound.write(
                            ByteBuffer(
                                bytes: Self.encode(
                                    ControlResponse(ok: false, message: "request longer than \(Self.maximumRequestLength) bytes"))))
                        return
                    }
                }
            }
        } catch {
            logger.debug("control connection ended: \(error)")
        }
    }

    private func respond(to line: Data) async -> Data {
        guard let request = try? JSONDecoder().decode(ControlRequest.self, from: line) else {
            return Self.encode(
                ControlResponse(ok: false, message: "not a control request: expected one JSON object such as {\"command\":\"status\"}"))
        }
        return Self.encode(await handler(request))
    }

    private static func encode(_ response: ControlResponse) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return ((try? encoder.encode(response)) ?? Data("{\"ok\":false,\"message\":\"cannot encode the response\"}".utf8)) + Data("\n".utf8)
    }

    /// Removes a socket file nobody listens on; refuses to touch a live socket, another
    /// user's, or another file.
    private static func removeStaleSocket(at path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw ControlError(description: "\(path) exists and is not a socket; choose another --control path")
        }
        guard info.st_uid == geteuid() else {
            throw ControlError(
                description:
                    "\(path) is a socket of uid \(info.st_uid), not yours: another user's, which the daemon neither reuses nor removes; choose another --control path (in a directory only you can write, such as $XDG_RUNTIME_DIR)"
            )
        }
        if ControlClient.acceptsConnections(path) {
            throw ControlError(
                description:
                    "another process is already listening on \(path) (`sandglass ctl status --control \(path)` shows a daemon's pid); stop it or choose another --control path"
            )
        }
        guard unlink(path) == 0 || errno == ENOENT else {
            throw ControlError(
                description: "cannot remove the stale socket \(path): \(String(cString: strerror(errno))); choose another --control path")
        }
    }
}

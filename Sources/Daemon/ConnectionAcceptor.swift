import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle

/// Accepts `server`'s connections until graceful shutdown, each served in its own child task;
/// at shutdown the listening socket closes and the connections being served finish. At most
/// `maximumConnections` are served at once: one more is closed as soon as it is accepted, so
/// that idle clients cannot use up the daemon's descriptors.
func acceptConnections<Inbound: Sendable, Outbound: Sendable>(
    of server: NIOAsyncChannel<NIOAsyncChannel<Inbound, Outbound>, Never>,
    maximumConnections: Int = 64,
    serve: @escaping @Sendable (NIOAsyncChannel<Inbound, Outbound>) async -> Void
) async throws {
    let open = NIOLockedValueBox(0)
    try await withGracefulShutdownHandler {
        try await withThrowingDiscardingTaskGroup { group in
            try await server.executeThenClose { connections in
                for try await connection in connections {
                    let admitted = open.withLockedValue { count in
                        guard count < maximumConnections else { return false }
                        count += 1
                        return true
                    }
                    guard admitted else {
                        group.addTask { try? await connection.executeThenClose { _, _ in } }
                        continue
                    }
                    group.addTask {
                        await serve(connection)
                        open.withLockedValue { $0 -= 1 }
                    }
                }
            }
        }
    } onGracefulShutdown: {
        server.channel.close(promise: nil)
    }
}

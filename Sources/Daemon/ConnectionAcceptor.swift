import NIOCore
import ServiceLifecycle

/// Accepts `server`'s connections until graceful shutdown, each served in its own child task;
/// at shutdown the listening socket closes and the connections being served finish.
func acceptConnections<Inbound: Sendable, Outbound: Sendable>(
    of server: NIOAsyncChannel<NIOAsyncChannel<Inbound, Outbound>, Never>,
    serve: @escaping @Sendable (NIOAsyncChannel<Inbound, Outbound>) async -> Void
) async throws {
    try await withGracefulShutdownHandler {
        try await withThrowingDiscardingTaskGroup { group in
            try await server.executeThenClose { connections in
                for try await connection in connections {
                    group.addTask { await serve(connection) }
                }
            }
        }
    } onGracefulShutdown: {
        server.channel.close(promise: nil)
    }
}

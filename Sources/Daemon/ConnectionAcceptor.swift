import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle

/// Accepts `server`'s connections until graceful shutdown, each served in its own child task;
/// at shutdown the listening socket closes and the connections being served finish. At most
/// `maximumConnections` are served at once, so that idle clients cannot use up the daemon's
/// descriptors: when all are taken, the oldest connection that has not yet made its request is
/// closed for the new one (one that has, is being answered). Connections held open and silent
/// — any local user can open them to the metrics port — never keep a scrape out; a new one is
/// closed at once only when every connection is being answered.
///
/// `serve` calls its second argument once the connection's request has come whole.
func acceptConnections<Inbound: Sendable, Outbound: Sendable>(
    of server: NIOAsyncChannel<NIOAsyncChannel<Inbound, Outbound>, Never>,
    maximumConnections: Int = 64,
    serve: @escaping @Sendable (NIOAsyncChannel<Inbound, Outbound>, _ requested: @escaping @Sendable () -> Void) async -> Void
) async throws {
    let slots = ConnectionSlots(maximum: maximumConnections)
    try await withGracefulShutdownHandler {
        try await withThrowingDiscardingTaskGroup { group in
            try await server.executeThenClose { connections in
                for try await connection in connections {
                    guard let id = slots.admit(connection.channel) else {
                        group.addTask { try? await connection.executeThenClose { _, _ in } }
                        continue
                    }
                    group.addTask {
                        await serve(connection) { slots.requested(id) }
                        slots.release(id)
                    }
                }
            }
        }
    } onGracefulShutdown: {
        server.channel.close(promise: nil)
    }
}

/// The connections being served, oldest first, each with whether its request has come.
private final class ConnectionSlots: Sendable {
    private struct Slot {
        let id: Int
        let channel: any Channel
        var requested = false
    }

    private let maximum: Int
    private let state = NIOLockedValueBox<(next: Int, slots: [Slot])>((0, []))

    init(maximum: Int) {
        self.maximum = maximum
    }

    /// A slot for `channel` — taking the oldest one whose request has not come, closed, when
    /// all are taken — or nil when every one is being answered.
    func admit(_ channel: any Channel) -> Int? {
        let (id, evicted) = state.withLockedValue { state -> (Int?, (any Channel)?) in
            var evicted: (any Channel)?
            if state.slots.count >= maximum {
                guard let oldest = state.slots.firstIndex(where: { !$0.requested }) else { return (nil, nil) }
                evicted = state.slots.remove(at: oldest).channel
            }
            state.next += 1
            state.slots.append(Slot(id: state.next, channel: channel))
            return (state.next, evicted)
        }
        evicted?.close(promise: nil)
        return id
    }

    /// The request of connection `id` has come: it is not taken for a newcomer any more.
    func requested(_ id: Int) {
        state.withLockedValue { state in
            if let index = state.slots.firstIndex(where: { $0.id == id }) { state.slots[index].requested = true }
        }
    }

    /// Connection `id` was served (or closed).
    func release(_ id: Int) {
        state.withLockedValue { state in state.slots.removeAll { $0.id == id } }
    }
}

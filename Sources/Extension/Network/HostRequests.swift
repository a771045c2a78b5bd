import Dispatch
import SandglassIPC
import Synchronization

/// Requests the SDK makes of the host that wait for a reply (`createTask` → `taskCreated`,
/// `getTasks` → `taskList`), each under a `RequestID` of its own.
///
/// Ids: request ids are per direction, so any value would do; the SDK's start at 2⁶³ (the
/// high bit set) and count up, so that in logs and traces an extension's request never reads
/// like one of the host's activations, which count up from 1.
final class HostRequests: Sendable {
    /// Why a request got no reply.
    enum Failure: Error, Sendable, Equatable {
        /// Not running under the host: there is no connection.
        case notUnderHost
        /// The host answered with an error.
        case refused(String)
        /// No reply within the deadline.
        case timedOut(Double)
        /// The connection ended before the reply came.
        case connectionEnded
    }

    /// The first id the SDK uses.
    static let firstID: UInt64 = 1 << 63

    private final class Slot: Sendable {
        let signal = DispatchSemaphore(value: 0)
        let reply = Mutex<Message?>(nil)
        /// The connection the request went out on: only its reply counts.
        let connection: any RuntimeConnection
        let onReply: @Sendable (Message) -> Void

        init(connection: any RuntimeConnection, onReply: @escaping @Sendable (Message) -> Void) {
            self.connection = connection
            self.onReply = onReply
        }
    }

    private let nextID = Atomic<UInt64>(HostRequests.firstID)
    private let pending = Mutex<[RequestID: Slot]>([:])
    /// Seconds a request waits for its reply.
    let deadline: Double

    init(deadline: Double = 30) {
        self.deadline = deadline
        Self.live.withLock { live in
            live.removeAll { $0.requests == nil }
            live.append(WeakRequests(self))
        }
    }

    /// Every instance, so that a runtime's end reaches the requests it left waiting.
    private static let live = Mutex<[WeakRequests]>([])

    private final class WeakRequests: Sendable {
        weak let requests: HostRequests?
        init(_ requests: HostRequests) { self.requests = requests }
    }

    /// Ends at once every request waiting for a reply on `connection`, whose runtime stopped
    /// reading: no reply can come. (In an extension's process the process ends with it; a
    /// runtime served in-process leaves its caller's thread — perhaps a Swift concurrency thread
    /// the host shares — blocked until the deadline otherwise.)
    static func connectionEnded(_ connection: any RuntimeConnection) {
        for instance in live.withLock({ $0.compactMap(\.requests) }) {
            let waiting = instance.pending.withLock { $0.values.filter { $0.connection === connection } }
            for slot in waiting { slot.signal.signal() }
        }
    }

    /// Sends the request `make` builds with a fresh id and waits for the reply that names it.
    /// Blocks the calling thread (never the reader thread, which delivers the reply).
    ///
    /// `onReply` runs on the reader thread as the reply arrives, before any later message is
    /// read: what must be in place for the messages that follow (a new task's registration)
    /// goes there.
    func send(
        on connection: (any RuntimeConnection)?,
        onReply: @escaping @Sendable (Message) -> Void = { _ in },
        _ make: (RequestID) -> Message
    ) -> Result<Message, Failure> {
        guard let connection else { return .failure(.notUnderHost) }
        let id = RequestID(nextID.wrappingAdd(1, ordering: .relaxed).oldValue)
        let slot = Slot(connection: connection, onReply: onReply)
        pending.withLock { $0[id] = slot }
        connection.send(make(id))
        let answered = slot.signal.wait(timeout: .now() + deadline) == .success
        pending.withLock { _ = $0.removeValue(forKey: id) }
        guard answered else { return .failure(.timedOut(deadline)) }
        guard let reply = slot.reply.withLock({ $0 }) else { return .failure(.connectionEnded) }
        if case .error(let report) = reply {
            return .failure(.refused(report.message))
        }
        return .success(reply)
    }

    /// Hands a reply that came on `connection` to the request waiting for it; false when no
    /// request sent on that connection has its id (several runtimes may share a process).
    func fulfil(_ reply: Message, from connection: any RuntimeConnection) -> Bool {
        guard let id = reply.requestID, let slot = pending.withLock({ $0[id] }), slot.connection === connection else { return false }
        slot.onReply(reply)
        slot.reply.withLock { $0 = reply }
        slot.signal.signal()
        return true
    }
}

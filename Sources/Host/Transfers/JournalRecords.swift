import Foundation
import SandglassIPC

/// A background session in the journal: per containing app and identifier.
struct SessionRecord: Sendable, Equatable {
    var app: String
    var identifier: String
    /// The extension whose process created it: the one relaunched for its events.
    var bundle: String
    var sendsLaunchEvents: Bool
    var isDiscretionary: Bool
    var requestTimeout: Double
    var resourceTimeout: Double
    var sharedContainer: String?
    var nextTaskIdentifier: Int = 1
}

/// A background task in the journal.
struct TaskRecord: Sendable {
    enum State: String, Sendable {
        /// Created, not resumed.
        case suspended
        /// Resumed; waiting for its earliestBeginDate or a retry.
        case waiting
        /// An HTTP attempt is in flight.
        case running
        case finished
        case failed
        case cancelled

        /// The states of a task that has not ended.
        static let live: [State] = [.suspended, .waiting, .running]
        /// The states of a task that has ended.
        static let ended: [State] = [.finished, .failed, .cancelled]

        /// `states` as the list of an SQL `IN (…)`: `'finished', 'failed'`.
        static func sqlList(_ states: [State]) -> String {
            states.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        }
    }

    var id: Int64?
    var app: String
    var session: String
    var bundle: String
    var taskIdentifier: Int
    var kind: TaskKind
    var state: State
    var request: HTTPRequestPayload
    var taskDescription: String?
    var earliestBeginDate: Double?
    var expectsSend: Int64
    var expectsReceive: Int64
    var bytesReceived: Int64 = 0
    var bytesExpected: Int64 = -1
    var response: HTTPResponsePayload?
    var error: TaskErrorPayload?
    var attempts: Int = 0
    /// ETag or Last-Modified of the partial body, for a Range resume.
    var validator: String?
    var createdAt: Double
    var finishedAt: Double?

    /// What `getAllTasks` and a relaunched session see.
    var snapshot: TaskSnapshot {
        let taskState: TaskState =
            switch state {
            case .suspended: .suspended
            case .waiting, .running: .running
            case .finished, .failed, .cancelled: .completed
            }
        return TaskSnapshot(
            taskIdentifier: taskIdentifier, kind: kind, state: taskState, request: request, taskDescription: taskDescription,
            earliestBeginDate: earliestBeginDate, countOfBytesClientExpectsToSend: expectsSend,
            countOfBytesClientExpectsToReceive: expectsReceive, countOfBytesReceived: bytesReceived,
            countOfBytesExpectedToReceive: bytesExpected, response: response, error: error)
    }
}

/// A session event waiting for delivery and acknowledgement.
struct EventRecord: Sendable {
    enum Kind: String, Sendable {
        /// `urlSession(_:downloadTask:didFinishDownloadingTo:)`.
        case downloadFinished
        /// `urlSession(_:task:didCompleteWithError:)`.
        case taskCompleted
    }

    var id: Int64?
    var app: String
    var session: String
    var bundle: String
    var taskIdentifier: Int
    var kind: Kind
    /// The downloaded body, kept by the host until the event is acknowledged.
    var file: String?
    var response: HTTPResponsePayload?
    var error: TaskErrorPayload?
    var deliveries: Int = 0
    var createdAt: Double
}

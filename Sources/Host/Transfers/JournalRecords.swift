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

    /// What the responses' headers and the errors' messages of one list of tasks may take:
    /// with the requests (``MessageLimits/sessionTaskBytes``) and each task's smallest form the
    /// list fits in one frame.
    static let listDetailBytes = 192 << 10
    /// Past the list's detail budget a response's type, or an error's message, is cut to this
    /// many bytes (and a few more that say how much was cut).
    static let listDetailCut = 64

    /// The snapshots of `tasks`, as a task list (`taskList`, `sessionAttached`) for `process`
    /// carries them, fitting in one frame whatever the servers answered: a response's URL is
    /// left out when it is the request's (for an extension that speaks
    /// ``ProtocolVersion/listedResponsesWithoutURL``); responses and errors come whole while they
    /// fit in ``listDetailBytes``; then a response keeps its status, length and type, without
    /// its URL, and an error its code, its message cut.
    static func snapshots(of tasks: [TaskRecord], for process: ExtensionProcess) -> [TaskSnapshot] {
        snapshots(of: tasks, omittingResponseURLs: process.hello.map { $0.version >= .listedResponsesWithoutURL } ?? false)
    }

    static func snapshots(of tasks: [TaskRecord], omittingResponseURLs: Bool) -> [TaskSnapshot] {
        var budget = listDetailBytes
        return tasks.map { task in
            var snapshot = task.snapshot
            if omittingResponseURLs, var response = snapshot.response, response.url == task.request.url {
                response.url = ""
                snapshot.response = response
            }
            let detail =
                (snapshot.response?.headers.reduce(snapshot.response?.url.utf8.count ?? 0) {
                    $0 + $1.name.utf8.count + $1.value.utf8.count + 8
                } ?? 0)
                + (snapshot.error?.message.utf8.count ?? 0)
            guard detail > budget else {
                budget -= detail
                return snapshot
            }
            budget = 0
            if var response = snapshot.response {
                response.url = ""
                response.headers = response.cutType
                snapshot.response = response
            }
            if var error = snapshot.error {
                error.message = MessageBudget.cut(error.message, to: listDetailCut)
                snapshot.error = error
            }
            return snapshot
        }
    }

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

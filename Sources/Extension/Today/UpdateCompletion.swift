import SandglassIPC
import Synchronization

/// The completion handler handed to `widgetPerformUpdate`: the first call answers the host's
/// request; a later call is misuse, reported to the host, and ignored.
final class UpdateCompletion: Sendable {
    private let request: RequestID
    private let connection: any RuntimeConnection
    private let first = Mutex<NCUpdateResult?>(nil)

    init(request: RequestID, connection: any RuntimeConnection) {
        self.request = request
        self.connection = connection
    }

    /// Answers the request with `result`, or reports a second call.
    func call(_ result: NCUpdateResult) {
        let earlier = first.withLock { first -> NCUpdateResult? in
            if let first { return first }
            first = result
            return nil
        }
        guard let earlier else {
            // What the update wrote to its groups' defaults, to the app.
            for problem in GroupDefaultsSync.shared.synchronise() { connection.log(.warning, problem) }
            connection.send(.updateResultReply(request, UpdateResultCode(rawValue: UInt8(result.rawValue)) ?? .failed))
            return
        }
        connection.send(
            .diagnostic(
                DiagnosticReport(
                    code: .completionCalledTwice, requestID: request,
                    message:
                        "widgetPerformUpdate's completion handler was called a second time (with .\(result)); the first result (.\(earlier)) counts and the second is ignored"
                )))
    }
}

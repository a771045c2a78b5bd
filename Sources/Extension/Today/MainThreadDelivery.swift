import Dispatch
import SandglassIPC
import Synchronization

/// One call delivered on the main thread, watched from another thread.
///
/// The host cannot see a process's threads, and the SDK answers `ping` on its reader thread,
/// so a blocked main thread does not show from outside. The SDK watches instead: when a call
/// is queued for the main thread, a timer on a global queue fires after ``threshold``; if the
/// call has not started by then the main thread is busy (`mainThreadBusy`), if it started and
/// has not returned it is blocking the main thread (`mainThreadBlocking`). A call that returns
/// after more than the threshold reports how long it blocked (`mainThreadBlocked`). The reader
/// thread and the timer keep working while the main thread is blocked, so the reports reach
/// the host even when the process is killed before the call returns.
final class MainThreadDelivery: Sendable {
    /// 250 ms: the duration from which Apple's tools count an unresponsive main thread as a hang.
    static let threshold: DispatchTimeInterval = .milliseconds(250)
    static let thresholdNanoseconds: UInt64 = 250_000_000

    private enum State {
        case queued(at: UInt64)
        case running(since: UInt64)
        case returned
    }

    private let request: RequestID
    private let call: String
    private let connection: any RuntimeConnection
    private let state: Mutex<State>

    /// Watches `call`, queued now for request `request`.
    init(request: RequestID, call: String, connection: any RuntimeConnection) {
        self.request = request
        self.call = call
        self.connection = connection
        state = Mutex(.queued(at: DispatchTime.now().uptimeNanoseconds))
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.threshold) { [self] in check() }
    }

    /// The call starts on the main thread.
    func started() {
        state.withLock { $0 = .running(since: DispatchTime.now().uptimeNanoseconds) }
    }

    /// The call returned; reports it when it blocked the main thread longer than the threshold.
    func returned() {
        let now = DispatchTime.now().uptimeNanoseconds
        let blocked = state.withLock { state -> UInt64? in
            defer { state = .returned }
            if case .running(let since) = state { return now - since }
            return nil
        }
        if let blocked, blocked > Self.thresholdNanoseconds {
            let ms = Double(blocked) / 1e6
            report(
                .mainThreadBlocked, ms,
                "\(call) blocked the main thread for \(Int(ms.rounded())) ms before returning; do the work off the main thread and call the completion handler when it is done"
            )
        }
    }

    private func check() {
        let now = DispatchTime.now().uptimeNanoseconds
        switch state.withLock({ $0 }) {
        case .queued(let at):
            let ms = Double(now - at) / 1e6
            report(
                .mainThreadBusy, ms, "\(call) has not started after \(Int(ms.rounded())) ms: the main thread is busy with something else")
        case .running(let since):
            let ms = Double(now - since) / 1e6
            report(
                .mainThreadBlocking, ms,
                "\(call) has been running on the main thread for \(Int(ms.rounded())) ms and has not returned: it blocks the main thread")
        case .returned:
            break
        }
    }

    private func report(_ code: DiagnosticCode, _ ms: Double, _ message: String) {
        connection.send(
            .diagnostic(DiagnosticReport(code: code, requestID: request, milliseconds: (ms * 1000).rounded() / 1000, message: message)))
    }
}

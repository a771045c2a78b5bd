import Dispatch
import NotificationCenter
import SandglassIPC
import Synchronization

@_spi(SandglassRuntime) @testable import WidgetKit

/// What the test principal classes saw.
enum TodayProbe {
    /// Whether each `widgetPerformUpdate` call ran on the main queue. (In the test process the
    /// main queue is served by a pool thread, as `dispatchMain()` does on Linux; an extension's
    /// `NSExtensionMain()` serves it on the main thread itself, which the end-to-end tests check.)
    static let calledOnMainThread = Mutex<[Bool]>([])
    static var onMainQueue: Bool { isOnMainQueue() }
    static let viewDidLoadCalls = Atomic<Int>(0)

    static func reset() {
        calledOnMainThread.withLock { $0.removeAll() }
        viewDidLoadCalls.store(0, ordering: .relaxed)
    }
}

/// The article's pattern: work on a global queue, then `.newData`.
final class NewDataController: UIViewController, NCWidgetProviding {
    override func viewDidLoad() {
        TodayProbe.viewDidLoadCalls.add(1, ordering: .relaxed)
    }

    func widgetPerformUpdate(completionHandler: @escaping @Sendable (NCUpdateResult) -> Void) {
        TodayProbe.calledOnMainThread.withLock { $0.append(TodayProbe.onMainQueue) }
        DispatchQueue.global().async { completionHandler(.newData) }
    }
}

/// Calls its completion twice: `.newData`, then `.noData`.
final class TwiceController: UIViewController, NCWidgetProviding {
    func widgetPerformUpdate(completionHandler: @escaping @Sendable (NCUpdateResult) -> Void) {
        completionHandler(.newData)
        completionHandler(.noData)
    }
}

/// Implements only the async form.
final class AsyncController: UIViewController, NCWidgetProviding {
    func widgetPerformUpdate() async -> NCUpdateResult {
        TodayProbe.calledOnMainThread.withLock { $0.append(TodayProbe.onMainQueue) }
        return .noData
    }
}

/// Adopts the protocol and implements neither form.
final class SilentController: UIViewController, NCWidgetProviding {}

/// Blocks the main thread for 400 ms, then answers `.newData`.
final class BlockingController: UIViewController, NCWidgetProviding {
    func widgetPerformUpdate(completionHandler: @escaping @Sendable (NCUpdateResult) -> Void) {
        Thread.sleep(forTimeInterval: 0.4)
        completionHandler(.newData)
    }
}

/// Not a Today provider at all.
final class PlainController: UIViewController {}

/// Not a view controller.
final class NotAController: NSObject {}

private let mainQueueKey = DispatchSpecificKey<Bool>()

/// Whether the caller runs on the main queue.
func isOnMainQueue() -> Bool {
    DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
    return DispatchQueue.getSpecific(key: mainQueueKey) == true
}

extension RuntimeHarness {
    /// A Today extension's runtime serving a fresh `type`, after the handshake.
    static func today(_ type: UIViewController.Type) async throws -> RuntimeHarness {
        let harness = try RuntimeHarness(widgets: [], role: .today)
        let runtime = harness.runtime
        let name = String(reflecting: type)
        let service = await MainActor.run { TodayService(controller: type.init(), className: name, runtime: runtime) }
        RuntimeServices.register(service)
        try harness.handshake()
        return harness
    }

    /// Sends `performUpdate` and returns its id.
    func performUpdate() throws -> RequestID {
        let id = makeID()
        try host.send(.performUpdateRequest(id))
        return id
    }
}

extension HostEnd {
    /// The next update result, skipping log lines.
    func expectUpdateResult(within seconds: Double = HostEnd.patience) throws -> (RequestID, UpdateResultCode) {
        try expect("updateResultReply", within: seconds) { message -> (RequestID, UpdateResultCode)? in
            if case .updateResultReply(let id, let code) = message { return (id, code) }
            return nil
        }
    }

    /// The next diagnostic, skipping log lines.
    func expectDiagnostic(within seconds: Double = HostEnd.patience) throws -> DiagnosticReport {
        try expect("diagnostic", within: seconds) { message -> DiagnosticReport? in
            if case .diagnostic(let report) = message { return report }
            return nil
        }
    }
}

import Dispatch
import SandglassIPC

/// Serves the host's `performUpdate` requests to a Today extension's principal class: each
/// `widgetPerformUpdate(completionHandler:)` call is delivered on the main thread, watched by a
/// ``MainThreadDelivery``, and answered by the first call of its ``UpdateCompletion``.
final class TodayService: RuntimeService {
    /// The principal class instance; only touched on the main thread.
    private final class Principal: @unchecked Sendable {
        let controller: UIViewController
        /// The controller as an `NCWidgetProviding`, cast once when the service is made: the
        /// first cast of a type looks through every protocol conformance of the program, work
        /// of the SDK that the main-thread watch of an update must not count as the
        /// extension's (it is tens of milliseconds in a large program on a loaded machine).
        let provider: (any NCWidgetProviding)?
        init(_ controller: UIViewController) {
            self.controller = controller
            provider = controller as? any NCWidgetProviding
        }
    }

    /// The runtime whose requests this service takes (held weakly: a runtime that is gone takes none).
    private final class Owner: @unchecked Sendable {
        weak var runtime: AnyObject?
        init(_ runtime: AnyObject) { self.runtime = runtime }
    }

    private let principal: Principal
    private let className: String
    private let owner: Owner?

    /// A service for `controller`; with `runtime`, only that runtime's requests are taken.
    init(controller: UIViewController, className: String, runtime: AnyObject? = nil) {
        principal = Principal(controller)
        self.className = className
        owner = runtime.map(Owner.init)
    }

    func handle(_ message: Message, runtime: any RuntimeConnection) -> Bool {
        guard case .performUpdateRequest(let id) = message else { return false }
        if let owner, owner.runtime == nil || owner.runtime !== (runtime as AnyObject) { return false }
        let delivery = MainThreadDelivery(request: id, call: "widgetPerformUpdate", connection: runtime)
        let completion = UpdateCompletion(request: id, connection: runtime)
        let principal = self.principal
        let className = self.className
        // What the app wrote to its groups' defaults, before the update reads it.
        for problem in GroupDefaultsSync.shared.synchronise() { runtime.log(.warning, problem) }
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                delivery.started()
                if let provider = principal.provider {
                    PerformUpdateContext.current = PerformUpdateContext(request: id, connection: runtime)
                    // The SDK's calls from the update (and the tasks it starts) reach this runtime.
                    ExtensionRuntime.$serving.withValue(runtime as? ExtensionRuntime) {
                        provider.widgetPerformUpdate { result in completion.call(result) }
                    }
                    PerformUpdateContext.current = nil
                } else {
                    runtime.send(
                        .diagnostic(
                            DiagnosticReport(
                                code: .performUpdateNotImplemented, requestID: id,
                                message: "\(className) does not conform to NCWidgetProviding, so it cannot update; the update fails")))
                    completion.call(.failed)
                }
                delivery.returned()
            }
        }
        return true
    }

    /// Tells the host that the principal class implements neither form of `widgetPerformUpdate`.
    static func reportNotImplemented(by className: String, context: PerformUpdateContext?) {
        (context?.connection ?? RuntimeServices.connection)?.send(
            .diagnostic(
                DiagnosticReport(
                    code: .performUpdateNotImplemented, requestID: context?.request,
                    message:
                        "\(className) implements neither widgetPerformUpdate(completionHandler:) nor widgetPerformUpdate() async; without it the widget gets no updates, and this one fails"
                )))
    }
}

/// What a Today extension's principal class adopts so the system can ask it to update.
///
/// Apple declares `widgetPerformUpdate(completionHandler:)` as an optional Objective-C method;
/// Swift on Linux has no optional requirements, so both forms are requirements with default
/// implementations here. Implement either one, as on Apple platforms:
///
/// ```swift
/// class TodayViewController: UIViewController, NCWidgetProviding {
///     func widgetPerformUpdate(completionHandler: @escaping (NCUpdateResult) -> Void) {
///         DispatchQueue.global().async {
///             let changed = self.model.refresh()          // off the main thread
///             completionHandler(changed ? .newData : .noData)
///         }
///     }
/// }
/// ```
///
/// or `func widgetPerformUpdate() async -> NCUpdateResult`. The system calls the method on the
/// main thread; the completion may be called later, from any thread, once — a second call is
/// ignored and reported to the host as misuse. A class that implements neither form answers
/// `.failed`, and the host records that it does not implement updates ("An implementation is
/// required to enable background updates").
@MainActor @preconcurrency
public protocol NCWidgetProviding: NSObjectProtocol {
    /// Called on the main thread to give the widget an opportunity to update its content;
    /// call `completionHandler` when the work is done.
    @preconcurrency
    func widgetPerformUpdate(completionHandler: @escaping @Sendable (NCUpdateResult) -> Void)

    /// The async form: return the result when the work is done.
    func widgetPerformUpdate() async -> NCUpdateResult
}

extension NCWidgetProviding {
    /// Runs the async form on the main actor and passes its result to `completionHandler`.
    public func widgetPerformUpdate(completionHandler: @escaping @Sendable (NCUpdateResult) -> Void) {
        let context = PerformUpdateContext.current
        Task { @MainActor in
            let result = await PerformUpdateContext.$async.withValue(context) {
                await self.widgetPerformUpdate()
            }
            completionHandler(result)
        }
    }

    /// Neither form is implemented: reports it to the host and answers `.failed`.
    public func widgetPerformUpdate() async -> NCUpdateResult {
        TodayService.reportNotImplemented(by: String(reflecting: type(of: self)), context: PerformUpdateContext.async)
        return .failed
    }
}

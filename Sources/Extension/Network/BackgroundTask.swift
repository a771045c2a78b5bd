/// A kind of background task the system may wake an extension for; in widget extensions, the
/// events of background URL sessions. Give it to `backgroundTask(_:action:)`:
///
/// ```swift
/// .backgroundTask(.urlSession("com.example.feed")) {
///     await Downloads.shared.handleEvents()
/// }
/// ```
///
/// The system considers the task complete when the action returns.
public struct BackgroundTask<Request, Response>: Sendable {
    let matching: BackgroundSessionHandler.Matching
    let accepts: @Sendable (String) -> Bool
    let request: @Sendable (String) -> Request
}

extension BackgroundTask where Request == String, Response == Void {
    /// The events of any background URL session; the action gets the session identifier.
    public static var urlSession: BackgroundTask<String, Void> {
        BackgroundTask(matching: .closure, accepts: { _ in true }, request: { $0 })
    }

    /// The events of the background URL sessions whose identifiers `matching` accepts; the
    /// action gets the session identifier.
    public static func urlSession(matching: @escaping @Sendable (String) -> Bool) -> BackgroundTask<String, Void> {
        BackgroundTask(matching: .closure, accepts: matching, request: { $0 })
    }
}

extension BackgroundTask where Request == Void, Response == Void {
    /// The events of the background URL session `identifier`.
    public static func urlSession(_ identifier: String) -> BackgroundTask<Void, Void> {
        BackgroundTask(matching: .identifier(identifier), accepts: { $0 == identifier }, request: { _ in () })
    }
}

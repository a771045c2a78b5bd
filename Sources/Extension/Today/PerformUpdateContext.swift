import SandglassIPC

/// Which `performUpdate` request a `widgetPerformUpdate` call serves, and the connection it
/// came on, so that the default implementations can report on it.
struct PerformUpdateContext: Sendable {
    let request: RequestID
    let connection: any RuntimeConnection

    /// Set on the main thread around the synchronous call.
    @MainActor static var current: PerformUpdateContext?
    /// Carried into the async form started by the default completion-handler implementation.
    @TaskLocal static var async: PerformUpdateContext?
}

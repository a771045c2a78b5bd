import SandglassIPC

/// Which `performUpdate` request a `widgetPerformUpdate` call serves, so that the default
/// implementations can name it in their reports.
enum PerformUpdateContext {
    /// Set on the main thread around the synchronous call.
    @MainActor static var current: RequestID?
    /// Carried into the async form started by the default completion-handler implementation.
    @TaskLocal static var asyncRequest: RequestID?
}

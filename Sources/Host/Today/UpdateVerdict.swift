/// The host's judgement of one Today `performUpdate` (`update.result`'s `verdict`).
public enum UpdateVerdict: String, Sendable, Hashable, CaseIterable {
    /// The completion handler was called with `.newData` or `.noData`, without blocking the main thread.
    case completed
    /// The extension called its completion handler with `.failed`.
    case extensionReportedFailure
    /// The completion handler was never called within the budget: the extension was killed and
    /// the update recorded as failed.
    case completionNeverCalled
    /// `widgetPerformUpdate` blocked the main thread (the naive synchronous pattern), whether or
    /// not it answered in time.
    case mainThreadBlocked
    /// The principal class does not implement `widgetPerformUpdate`.
    case notImplemented
    /// The process was killed for another reason (memory, CPU, protocol) or ended before answering.
    case extensionDied
    /// The extension could not be launched (no hello within its launch budget, a crash at start).
    case launchFailed
}

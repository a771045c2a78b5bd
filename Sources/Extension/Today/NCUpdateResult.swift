/// The result a Today extension passes to its `widgetPerformUpdate` completion handler.
///
/// ```swift
/// completionHandler(hasChanges ? .newData : .noData)
/// ```
///
/// Raw values are Apple's (0, 1, 2). Every result the host receives goes to the event log as
/// `update.result`.
public enum NCUpdateResult: UInt, Sendable, Hashable, CaseIterable {
    /// The update produced new content to display.
    case newData = 0
    /// The update produced nothing new since the last one.
    case noData = 1
    /// The update attempt failed.
    case failed = 2
}

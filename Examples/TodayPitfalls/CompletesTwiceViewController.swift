import NotificationCenter

/// Calls the completion handler when the data arrives, and again in a `defer` meant for the
/// error path. The host counts the first result (`.newData`) and records the second call as
/// misuse (`update.misuse`).
class CompletesTwiceViewController: UIViewController, NCWidgetProviding {
    func widgetPerformUpdate(completionHandler: @escaping (NCUpdateResult) -> Void) {
        DispatchQueue.global().async {
            defer { completionHandler(.noData) } // the bug: runs after the success path too
            completionHandler(.newData)
        }
    }
}

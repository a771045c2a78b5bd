import NotificationCenter

/// Returns early on "nothing to do" and forgets the completion handler on that path. The host
/// waits out the performUpdate budget (TodayPitfalls.app sets PerformUpdateSeconds to 1), kills
/// the extension and records the update as failed: `completionNeverCalled`.
class NeverCompletesViewController: UIViewController, NCWidgetProviding {
    nonisolated private func feedHasChanged() -> Bool {
        false
    }

    func widgetPerformUpdate(completionHandler: @escaping (NCUpdateResult) -> Void) {
        DispatchQueue.global().async {
            guard self.feedHasChanged() else { return } // the bug: completionHandler(.noData) is missing
            completionHandler(.newData)
        }
    }
}

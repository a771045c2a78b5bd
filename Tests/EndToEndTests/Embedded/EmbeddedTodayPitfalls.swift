import Foundation
import SandglassEmbedded
import WidgetKit

/// TodayPitfalls.app run embedded (`Examples/TodayPitfalls`): the naive version that blocks
/// the main thread (here the test process's main queue), one that never calls its completion
/// handler, and one that calls it twice, each under the name its Info.plist gives.
extension BackendApp {
    static let todayPitfalls = BackendApp(name: "TodayPitfalls.app") {
        let executable = InProcessRuntime.Widgets(principalClasses: [
            "TodayPitfalls.NaiveViewController": EmbeddedNaiveViewController.self,
            "TodayPitfalls.NeverCompletesViewController": EmbeddedNeverCompletesViewController.self,
            "TodayPitfalls.CompletesTwiceViewController": EmbeddedCompletesTwiceViewController.self
        ])
        return Dictionary(
            uniqueKeysWithValues: ["naive", "nevercompletes", "completestwice"].map { ("com.example.todaypitfalls.\($0)", executable) })
    }
}

/// The expensive operation runs right there, on the main thread, before the completion handler
/// is called: it answers after blocking for 1.5 s.
final class EmbeddedNaiveViewController: UIViewController, NCWidgetProviding {
    private var text = ""

    private func performExpensiveNetworkOperation() -> String {
        // A synchronous request: the calling thread waits for the answer.
        Thread.sleep(forTimeInterval: 1.5)
        return "42 new items"
    }

    func widgetPerformUpdate(completionHandler: @escaping @Sendable (NCUpdateResult) -> Void) {
        let resultModel = performExpensiveNetworkOperation()
        text = resultModel
        completionHandler(NCUpdateResult.newData)
    }
}

/// Returns early on "nothing to do" and forgets the completion handler on that path.
final class EmbeddedNeverCompletesViewController: UIViewController, NCWidgetProviding {
    nonisolated private func feedHasChanged() -> Bool {
        false
    }

    func widgetPerformUpdate(completionHandler: @escaping @Sendable (NCUpdateResult) -> Void) {
        DispatchQueue.global().async {
            guard self.feedHasChanged() else { return } // the bug: completionHandler(.noData) is missing
            completionHandler(.newData)
        }
    }
}

/// Calls the completion handler when the data arrives, and again in a `defer` meant for the
/// error path.
final class EmbeddedCompletesTwiceViewController: UIViewController, NCWidgetProviding {
    func widgetPerformUpdate(completionHandler: @escaping @Sendable (NCUpdateResult) -> Void) {
        DispatchQueue.global().async {
            defer { completionHandler(.noData) } // the bug: runs after the success path too
            completionHandler(.newData)
        }
    }
}

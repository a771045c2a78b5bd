import Foundation
import SandglassEmbedded
import WidgetKit

/// TodayPitfalls.app run embedded (`Examples/TodayPitfalls`): the extension that never calls
/// its completion handler and the one that calls it twice, each under the name its Info.plist
/// gives. The naive one is not served (its launch fails): it blocks the main thread for 1.5 s,
/// and in-process that is the test process's main queue, where every embedded Today
/// extension's `widgetPerformUpdate` is delivered, so its siblings' updates would wait behind it
/// (a main thread of their own each, in their processes).
extension BackendApp {
    static let todayPitfalls = BackendApp(name: "TodayPitfalls.app") {
        let executable = InProcessRuntime.Widgets(principalClasses: [
            "TodayPitfalls.NeverCompletesViewController": EmbeddedNeverCompletesViewController.self,
            "TodayPitfalls.CompletesTwiceViewController": EmbeddedCompletesTwiceViewController.self
        ])
        return Dictionary(
            uniqueKeysWithValues: ["nevercompletes", "completestwice"].map { ("com.example.todaypitfalls.\($0)", executable) })
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

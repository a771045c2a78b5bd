import Foundation
import SandglassEmbedded
import Synchronization
import WidgetKit

/// TodayPatterns.app run embedded: the article's three `widgetPerformUpdate` patterns and the
/// async form (`Examples/TodayPatterns`), each class under the name its extension's Info.plist
/// gives, so that the runtime finds it by name as `NSExtensionMain()` does. The data source
/// keeps its counter in the extension's container (``EmbeddedExtension/container``) where the
/// example's uses HOME.
extension BackendApp {
    static let todayPatterns = BackendApp(name: "TodayPatterns.app") {
        let executable = InProcessRuntime.Widgets(principalClasses: [
            "TodayPatterns.SynchronousCallExampleViewController": EmbeddedSynchronousCallViewController.self,
            "TodayPatterns.AsynchronousCallWithCompletionBlockExampleViewController": EmbeddedCompletionBlockViewController.self,
            "TodayPatterns.AsynchronousCallWithDelegateExampleViewController": EmbeddedDelegateViewController.self,
            "TodayPatterns.AsyncAwaitExampleViewController": EmbeddedAsyncAwaitViewController.self
        ])
        return Dictionary(
            uniqueKeysWithValues: ["synchronous", "completionblock", "delegate", "asyncawait"].map {
                ("com.example.todaypatterns.\($0)", executable)
            })
    }
}

/// The examples' `DataSourceDelegate`.
protocol EmbeddedDataSourceDelegate: AnyObject, Sendable {
    func dataDidUpdate(dataSource: EmbeddedDataSource)
}

/// The examples' data source: a counter in the container, behind a 100 ms delay that stands for
/// the network. The container is read where the fetch is asked for (on the runtime's threads:
/// the main queue), since the data source's own queue is no runtime's.
final class EmbeddedDataSource: Sendable {
    private let state = Mutex<(delegate: (any EmbeddedDataSourceDelegate)?, data: Data?)>((nil, nil))

    var delegate: (any EmbeddedDataSourceDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }

    var data: Data? { state.withLock { $0.data } }

    /// Blocks while "the network" answers (100 ms), then returns the new data.
    func fetchData(container: String?) -> Data? {
        Thread.sleep(forTimeInterval: 0.1)
        let file = URL(fileURLWithPath: (container ?? NSTemporaryDirectory()) + "/fetches")
        let count = ((try? String(contentsOf: file, encoding: .utf8)).flatMap { Int($0) } ?? 0) + 1
        try? String(count).write(to: file, atomically: true, encoding: .utf8)
        let fetched = Data("fetch \(count)".utf8)
        state.withLock { $0.data = fetched }
        return fetched
    }

    /// Fetches on a queue of its own and calls back there.
    func fetchDataAsync(container: String?, _ completion: @escaping @Sendable (Data?) -> Void) {
        DispatchQueue(label: "datasource").async {
            completion(self.fetchData(container: container))
        }
    }

    /// Fetches on a queue of its own and tells the delegate.
    func fetchDataAsync(container: String?) {
        DispatchQueue(label: "datasource").async {
            _ = self.fetchData(container: container)
            self.delegate?.dataDidUpdate(dataSource: self)
        }
    }
}

/// "Performing a synchronous (blocking) operation": the blocking call runs on a global queue.
final class EmbeddedSynchronousCallViewController: UIViewController, NCWidgetProviding {
    private let dataSource = EmbeddedDataSource()

    func widgetPerformUpdate(completionHandler: @escaping @Sendable (NCUpdateResult) -> Void) {
        let dataSource = dataSource
        let container = EmbeddedExtension.container
        DispatchQueue.global().async {
            _ = dataSource.fetchData(container: container)
            DispatchQueue.main.async {} // update UI components
            completionHandler(.newData)
        }
    }
}

/// "Performing an asynchronous operation with a completion block".
final class EmbeddedCompletionBlockViewController: UIViewController, NCWidgetProviding {
    private let dataSource = EmbeddedDataSource()

    func widgetPerformUpdate(completionHandler: @escaping @Sendable (NCUpdateResult) -> Void) {
        let dataSource = dataSource
        let container = EmbeddedExtension.container
        DispatchQueue.global().async {
            dataSource.fetchDataAsync(container: container) { _ in
                DispatchQueue.main.async {} // update UI components
                completionHandler(.newData)
            }
        }
    }
}

/// "Performing an asynchronous operation with a delegate callback": the completion handler is
/// stored and called from the delegate method.
final class EmbeddedDelegateViewController: UIViewController, NCWidgetProviding {
    private let dataSource = EmbeddedDataSource()
    private let callback = EmbeddedDelegateCallback()

    func widgetPerformUpdate(completionHandler: @escaping @Sendable (NCUpdateResult) -> Void) {
        callback.widgetCompletionHandler.withLock { $0 = completionHandler }
        dataSource.delegate = callback
        let dataSource = dataSource
        let container = EmbeddedExtension.container
        DispatchQueue.global().async {
            dataSource.fetchDataAsync(container: container)
        }
    }
}

/// The delegate of ``EmbeddedDelegateViewController``'s data source (the example's view
/// controller is its own delegate; here its state is apart, off the main actor).
final class EmbeddedDelegateCallback: EmbeddedDataSourceDelegate {
    let widgetCompletionHandler = Mutex<(@Sendable (NCUpdateResult) -> Void)?>(nil)

    func dataDidUpdate(dataSource: EmbeddedDataSource) {
        _ = dataSource.data
        DispatchQueue.main.async {} // update UI components
        if let completionHandler = widgetCompletionHandler.withLock({ $0.take() }) {
            completionHandler(.newData)
        }
    }
}

/// The async form: the work runs detached from the main actor; the result is returned.
final class EmbeddedAsyncAwaitViewController: UIViewController, NCWidgetProviding {
    private let dataSource = EmbeddedDataSource()

    func widgetPerformUpdate() async -> NCUpdateResult {
        let source = dataSource
        let container = EmbeddedExtension.container
        let data = await Task.detached { source.fetchData(container: container) }.value
        return data == nil ? .failed : .newData
    }
}

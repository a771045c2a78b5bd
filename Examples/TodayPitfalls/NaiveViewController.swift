import NotificationCenter

/// The version "most examples" show: the expensive operation runs right there, on the main
/// thread, before the completion handler is called. It answers — after blocking the main
/// thread for 1.5 s. The host's verdict is `mainThreadBlocked`.
class NaiveViewController: UIViewController, NCWidgetProviding {
    private var text = ""

    private func performExpensiveNetworkOperation() -> String {
        // A synchronous request: the calling thread waits for the answer.
        Thread.sleep(forTimeInterval: 1.5)
        return "42 new items"
    }

    func widgetPerformUpdate(completionHandler: (@escaping (NCUpdateResult) -> Void)) {
        FileHandle.standardError.write(Data("widgetPerformUpdate called on the main thread: \(Thread.isMainThread)\n".utf8))
        let resultModel = performExpensiveNetworkOperation()
        text = resultModel
        completionHandler(NCUpdateResult.newData)
    }
}

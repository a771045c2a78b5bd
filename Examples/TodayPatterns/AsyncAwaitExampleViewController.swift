import NotificationCenter

/// The async form, `widgetPerformUpdate() async -> NCUpdateResult`: the work runs detached from
/// the main actor; the result is returned. Two updates in a row give `.noData` the second time
/// when nothing changed — here the data always changes, so `.newData`.
class AsyncAwaitExampleViewController: UIViewController, NCWidgetProviding {
    private let dataSource = DataSource()

    func widgetPerformUpdate() async -> NCUpdateResult {
        let source = dataSource
        let data = await Task.detached { source.fetchData() }.value
        return data == nil ? .failed : .newData
    }
}

import Foundation

/// What the article's examples fetch from: here a counter in the container, behind a short
/// delay that stands for the network.
protocol DataSourceDelegate: AnyObject {
    func dataDidUpdate(dataSource: DataSource)
}

class DataSource {
    weak var delegate: DataSourceDelegate?
    private(set) var data: Data?

    private var file: URL {
        FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent("fetches")
    }

    /// Blocks while "the network" answers (100 ms), then returns the new data.
    func fetchData() -> Data? {
        Thread.sleep(forTimeInterval: 0.1)
        let count = ((try? String(contentsOf: file, encoding: .utf8)).flatMap { Int($0) } ?? 0) + 1
        try? String(count).write(to: file, atomically: true, encoding: .utf8)
        let fetched = Data("fetch \(count)".utf8)
        data = fetched
        return fetched
    }

    /// Fetches on a queue of its own and calls back there.
    func fetchDataAsync(_ completion: @escaping (Data?) -> Void) {
        DispatchQueue(label: "datasource").async {
            completion(self.fetchData())
        }
    }

    /// Fetches on a queue of its own and tells the delegate.
    func fetchDataAsync() {
        DispatchQueue(label: "datasource").async {
            _ = self.fetchData()
            self.delegate?.dataDidUpdate(dataSource: self)
        }
    }
}

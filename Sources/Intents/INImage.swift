import Foundation

/// An image an intent value shows (Sandglass keeps its name only).
open class INImage: NSObject {
    /// The image's name in the app's assets, or its URL.
    public let name: String

    public init(named name: String) {
        self.name = name
        super.init()
    }

    public init(url: URL) {
        name = url.absoluteString
        super.init()
    }
}

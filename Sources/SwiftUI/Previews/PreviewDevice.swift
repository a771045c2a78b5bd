/// A simulator device a preview runs on, by name (`previewDevice("iPhone 15 Pro")`).
public struct PreviewDevice: RawRepresentable, ExpressibleByStringLiteral, Sendable {
    /// The device's name, as Xcode's simulators name them.
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral: String) {
        self.init(rawValue: stringLiteral)
    }
}

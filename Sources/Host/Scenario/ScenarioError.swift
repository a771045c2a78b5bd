/// A scenario file that cannot be used; the description names the file and the key
/// (`commute.json: changes[1].authorization is "sometimes"; …`).
public struct ScenarioError: Error, Sendable, CustomStringConvertible {
    public var file: String
    /// The key path, e.g. `changes[1].authorization`; empty for the file as a whole.
    public var key: String
    public var message: String

    public init(file: String, key: String = "", _ message: String) {
        self.file = file
        self.key = key
        self.message = message
    }

    public var description: String {
        key.isEmpty ? "\(file): \(message)" : "\(file): \(key) \(message)"
    }
}

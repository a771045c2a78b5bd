/// A route file that cannot be used; the description names the file and, where there is one,
/// the line or element.
public struct RouteError: Error, Sendable, CustomStringConvertible {
    /// The file, as given.
    public var file: String
    /// `line 4`, `trkpt 3`, or empty.
    public var place: String
    public var message: String

    public init(file: String, place: String = "", _ message: String) {
        self.file = file
        self.place = place
        self.message = message
    }

    public var description: String {
        place.isEmpty ? "\(file): \(message)" : "\(file), \(place): \(message)"
    }
}

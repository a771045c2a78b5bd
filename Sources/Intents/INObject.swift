import Foundation

/// A value of a custom type in an intent definition (a hero, a city, an account): an
/// identifier the app understands and the string the system displays. Xcode generates a
/// subclass per custom type; on Linux write `public class Hero: INObject {}` (extra
/// `@NSManaged` properties become ``INParameter``s).
///
/// In a widget's configuration JSON an `INObject` is its identifier as a string, or an object
/// `{"identifier": "…", "displayString": "…"}`.
open class INObject: NSObject, Codable {
    /// What the app knows the value by.
    public let identifier: String?
    /// What the system shows.
    public let displayString: String
    /// How to pronounce ``displayString``.
    public let pronunciationHint: String?
    /// A second line under ``displayString``.
    open var subtitleString: String?

    public init(identifier: String?, display displayString: String, pronunciationHint: String? = nil) {
        self.identifier = identifier
        self.displayString = displayString
        self.pronunciationHint = pronunciationHint
        super.init()
    }

    public convenience init(identifier: String?, display displayString: String, subtitle: String?, image: INImage?) {
        self.init(identifier: identifier, display: displayString)
        subtitleString = subtitle
    }

    private enum CodingKeys: String, CodingKey {
        case identifier, displayString, pronunciationHint, subtitleString
    }

    public required init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let identifier = try? single.decode(String.self) {
            self.identifier = identifier
            displayString = identifier
            pronunciationHint = nil
            super.init()
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let identifier = try container.decodeIfPresent(String.self, forKey: .identifier)
        self.identifier = identifier
        displayString = try container.decodeIfPresent(String.self, forKey: .displayString) ?? identifier ?? ""
        pronunciationHint = try container.decodeIfPresent(String.self, forKey: .pronunciationHint)
        super.init()
        subtitleString = try container.decodeIfPresent(String.self, forKey: .subtitleString)
    }

    open func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(identifier, forKey: .identifier)
        try container.encode(displayString, forKey: .displayString)
        try container.encodeIfPresent(pronunciationHint, forKey: .pronunciationHint)
        try container.encodeIfPresent(subtitleString, forKey: .subtitleString)
    }

    /// Equal when of the same class with the same identifier and display string.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? INObject, type(of: other) == type(of: self) else { return false }
        return other.identifier == identifier && other.displayString == displayString
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(identifier)
        hasher.combine(displayString)
        return hasher.finalize()
    }

    open override var description: String { identifier ?? displayString }
}

import Foundation

/// A parameter of an ``INIntent`` — what `@NSManaged` declares in Xcode's generated code —
/// set from the widget's configuration by name.
///
/// ```swift
/// public class ConfigurationIntent: INIntent {
///     @INParameter public var hero: Hero?              // nil unless configured
///     @INParameter public var count: NSNumber?
///     @INParameter public var showsDetails: Bool = true  // a default of your own
/// }
/// ```
///
/// The value type is `Decodable` (`String`, `Int`, `Double`, `Bool`, `Date` — ISO 8601 or
/// seconds since 1970 —, `URL`, `DateComponents`, `INObject` subclasses, `Codable` enums,
/// arrays and optionals of these) or `NSNumber?`, as generated code declares numbers.
@propertyWrapper
public final class INParameter<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    private let decode: (Data) throws -> Value

    /// The parameter's current value.
    public var wrappedValue: Value {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }

    /// A parameter whose default is `wrappedValue`.
    public init(wrappedValue: Value) where Value: Decodable {
        value = wrappedValue
        decode = { try INParameterDecoding.decoder.decode(Value.self, from: $0) }
    }

    /// An optional parameter, `nil` until configured.
    public convenience init() where Value: Decodable & ExpressibleByNilLiteral {
        self.init(wrappedValue: nil)
    }

    /// A number as generated code declares it (`NSNumber?`), with its default.
    public init(wrappedValue: Value) where Value == NSNumber? {
        value = wrappedValue
        decode = { data in
            switch try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) {
            case let number as NSNumber: number
            case is NSNull: nil
            case let other: throw INParameterDecoding.Mismatch(expected: "a number or a Boolean", found: other)
            }
        }
    }

    /// A number as generated code declares it (`NSNumber?`), `nil` until configured.
    public convenience init() where Value == NSNumber? {
        self.init(wrappedValue: nil)
    }
}

@_spi(SandglassRuntime)
extension INParameter: INParameterSlot {
    public var currentValue: Any? {
        let current: Any = wrappedValue
        let mirror = Mirror(reflecting: current)
        guard mirror.displayStyle == .optional else { return current }
        return mirror.children.first?.value
    }

    public func assign(json: Data) throws {
        let decoded = try decode(json)
        wrappedValue = decoded
    }
}

/// A parameter the SDK can set from JSON: an ``INParameter``, and (through WidgetKit) an
/// AppIntents `@Parameter` of a `Decodable` value.
@_spi(SandglassRuntime)
public protocol INParameterSlot: AnyObject {
    /// The value, nil when unset.
    var currentValue: Any? { get }
    /// Sets the value from JSON (a fragment).
    func assign(json: Data) throws
}

@_spi(SandglassRuntime)
public enum INParameterDecoding {
    /// Dates as ISO 8601 text or seconds since 1970.
    public static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            if let seconds = try? container.decode(Double.self) { return Date(timeIntervalSince1970: seconds) }
            let text = try container.decode(String.self)
            let formatter = ISO8601DateFormatter()
            if let date = formatter.date(from: text) { return date }
            formatter.formatOptions = [.withFullDate]
            if let date = formatter.date(from: text) { return date }
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(text.debugDescription) is not an ISO 8601 date")
        }
        return decoder
    }

    struct Mismatch: Error, CustomStringConvertible {
        let expected: String
        let found: String

        init(expected: String, found: Any) {
            self.expected = expected
            self.found = String(describing: found)
        }

        var description: String { "expected \(expected), found \(found)" }
    }
}

/// The ``INParameter``s of an intent (or any value holding them), found by reflection.
enum INParameterSlots {
    static func slots(of subject: Any) -> [(name: String, slot: any INParameterSlot)] {
        var result: [(String, any INParameterSlot)] = []
        var mirror: Mirror? = Mirror(reflecting: subject)
        while let current = mirror {
            for child in current.children {
                guard let label = child.label, label.hasPrefix("_"), let slot = child.value as? any INParameterSlot else { continue }
                result.append((String(label.dropFirst()), slot))
            }
            mirror = current.superclassMirror
        }
        return result
    }
}

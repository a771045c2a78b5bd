import Foundation

/// A value read by `PropertyListSerialization`, classified by its property-list type.
///
/// Foundation hands back booleans, integers and reals as `NSNumber`s that cast to one another
/// (`<integer>1</integer> as? Bool` succeeds), so the type is read from the number itself:
/// a `<true/>` must not pass for an integer, nor `<integer>1</integer>` for a Boolean.
enum PropertyListValue {
    case bool(Bool)
    case integer(Int)
    /// An `<integer>` beyond the range of `Int`.
    case hugeInteger(String)
    case real(Double)
    case string(String)
    case dictionary([String: Any])
    case array
    case date
    case data
    case unknown(String)

    init(_ value: Any) {
        if type(of: value) == Bool.self, let bool = value as? Bool {
            self = .bool(bool)
        } else if let string = value as? String {
            self = .string(string)
        } else if let number = value as? NSNumber {
            switch String(cString: number.objCType) {
            case "c", "B":
                self = .bool(number.boolValue)
            case "d", "f":
                self = .real(number.doubleValue)
            case "Q", "L", "I", "S", "C":
                if number.uint64Value <= UInt64(Int.max) {
                    self = .integer(Int(number.uint64Value))
                } else {
                    self = .hugeInteger(number.stringValue)
                }
            default:
                self = .integer(number.intValue)
            }
        } else if let dictionary = value as? [String: Any] {
            self = .dictionary(dictionary)
        } else if value is [Any] {
            self = .array
        } else if value is Date {
            self = .date
        } else if value is Data {
            self = .data
        } else {
            self = .unknown(String(describing: type(of: value)))
        }
    }

    /// What the value is, for messages: `an integer (5)`, `a string ("x")`, `a dictionary`.
    /// The type alone, without the value (for a whole file's content, which may not be the
    /// user's to show: an Info.plist that is really some other file).
    var kind: String {
        switch self {
        case .bool: "a Boolean"
        case .integer, .hugeInteger: "an integer"
        case .real: "a real number"
        case .string: "a string"
        default: summary
        }
    }

    var summary: String {
        switch self {
        case .bool(let b): "a Boolean (\(b))"
        case .integer(let i): "an integer (\(i))"
        case .hugeInteger(let s): "an integer (\(s))"
        case .real(let d): "a real number (\(d))"
        case .string(let s): "a string (\(Self.quoted(s)))"
        case .dictionary: "a dictionary"
        case .array: "an array"
        case .date: "a date"
        case .data: "data"
        case .unknown(let type): "a \(type)"
        }
    }

    /// `s` in double quotes, shortened when long.
    static func quoted(_ s: String) -> String {
        let shown = s.count > 80 ? s.prefix(77) + "…" : Substring(s)
        return "\"\(shown)\""
    }
}

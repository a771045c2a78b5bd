import Foundation

/// A JSON value for the event log; `raw` carries JSON the extension already encoded (entries).
public enum JSONValue: Sendable, Hashable {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])
    /// Pre-encoded JSON, written verbatim.
    case raw(String)

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.serialized == rhs.serialized
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(serialized)
    }

    /// About the size of its JSON text in bytes, without writing it.
    var approximateBytes: Int {
        switch self {
        case .string(let s), .raw(let s): s.utf8.count + 2
        case .int, .double: 12
        case .bool, .null: 5
        case .array(let values): values.reduce(2) { $0 + $1.approximateBytes + 1 }
        case .object(let fields): fields.reduce(2) { $0 + $1.0.utf8.count + 4 + $1.1.approximateBytes }
        }
    }

    /// The compact JSON text.
    public var serialized: String {
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .int(let i): out += String(i)
        case .double(let d):
            if d.isFinite {
                if d == d.rounded() && abs(d) < 1e15 { out += String(Int64(d)) } else { out += String(d) }
            } else {
                out += "null"
            }
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        case .array(let values):
            out += "["
            for (i, v) in values.enumerated() {
                if i > 0 { out += "," }
                v.write(to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (i, (k, v)) in fields.enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeString(k, to: &out)
                out += ":"
                v.write(to: &out)
            }
            out += "}"
        case .raw(let json): out += json
        }
    }

    /// DEL, C1 controls and the bidirectional overrides and isolates: escaped in the log's JSON
    /// though JSON allows them in a string.
    static func escapedInLog(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// How the log writes `scalar` when not as itself: JSON's escapes, and `\\uXXXX` for
    /// control characters, DEL, C1 and the bidirectional overrides — a log read with `cat` or
    /// `tail -f` is not the extension's terminal either.
    static func escape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "\"": "\\\""
        case "\\": "\\\\"
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        case let c where c.value < 0x20 || escapedInLog(c):
            "\\u" + String(repeating: "0", count: 4 - String(c.value, radix: 16).count) + String(c.value, radix: 16)
        default: nil
        }
    }

    /// The bytes `s` takes in a line of the log, as ``writeString(_:to:)`` writes it, quotes
    /// left out: a control character takes six.
    static func writtenBytes(_ s: String) -> Int {
        s.unicodeScalars.reduce(0) { $0 + (escape($1)?.utf8.count ?? UTF8.width($1)) }
    }

    static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            if let escaped = escape(scalar) { out += escaped } else { out.unicodeScalars.append(scalar) }
        }
        out += "\""
    }

    /// The value with pre-encoded JSON (`raw`) parsed into values, recursively.
    public var resolved: JSONValue {
        switch self {
        case .raw(let json):
            guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed]) else { return self }
            return JSONValue(foundation: object)
        case .array(let values): return .array(values.map(\.resolved))
        case .object(let fields): return .object(fields.map { ($0.0, $0.1.resolved) })
        default: return self
        }
    }

    /// The field `key` of an object (after resolving raw JSON).
    public subscript(key: String) -> JSONValue? {
        if case .object(let fields) = resolved { return fields.first { $0.0 == key }?.1 }
        return nil
    }

    package init(foundation object: Any) {
        switch object {
        case let s as String: self = .string(s)
        case let n as NSNumber:
            let type = String(cString: n.objCType)
            if type == "c" {
                self = .bool(n.boolValue)
            } else if ["q", "l", "i", "s"].contains(type) || (["Q", "L"].contains(type) && n.uint64Value <= UInt64(Int64.max)) {
                self = .int(n.int64Value) // an integer stays one, whatever its size
            } else if n.doubleValue == n.doubleValue.rounded() && abs(n.doubleValue) < 9e15 {
                self = .int(n.int64Value)
            } else {
                self = .double(n.doubleValue)
            }
        case let a as [Any]: self = .array(a.map(JSONValue.init(foundation:)))
        case let d as [String: Any]: self = .object(d.sorted { $0.key < $1.key }.map { ($0.key, JSONValue(foundation: $0.value)) })
        default: self = .null
        }
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number, when this is one.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }

    /// The integer, when this is one (or a whole double).
    public var intValue: Int64? {
        switch self {
        case .int(let i): i
        case .double(let d) where d == d.rounded() && abs(d) < 9.2e18: Int64(d)
        default: nil
        }
    }
}

extension JSONValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
}

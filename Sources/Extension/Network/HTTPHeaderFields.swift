/// HTTP header fields in the order they were set, looked up without regard to case, as
/// `URLRequest` and `HTTPURLResponse` keep them.
///
/// Names compare byte by byte with ASCII letters folded — field names are ASCII tokens (RFC 9110
/// §5.1) — not through Foundation's `caseInsensitiveCompare`, whose first call in a process
/// loads Unicode tables on the way to a relaunched extension's first delegate call.
struct HTTPHeaderFields: Sendable, Hashable {
    /// One field, its name as it was first given.
    struct Field: Sendable, Hashable {
        var name: String
        var value: String
    }

    private(set) var fields: [Field] = []

    init() {}

    init(_ fields: [Field]) {
        for field in fields {
            add(field.value, for: field.name)
        }
    }

    var isEmpty: Bool { fields.isEmpty }

    /// The value of the field named `name` (any case), or `nil`.
    func value(for name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// Replaces the field named `name`, or removes it when `value` is `nil`.
    mutating func set(_ value: String?, for name: String) {
        guard let index = fields.firstIndex(where: { Self.sameName($0.name, name) }) else {
            if let value { fields.append(Field(name: name, value: value)) }
            return
        }
        if let value {
            fields[index].value = value
        } else {
            fields.remove(at: index)
        }
    }

    /// Appends `value` to the field named `name`, separated by a comma, as HTTP folds repeated fields.
    mutating func add(_ value: String, for name: String) {
        if let index = fields.firstIndex(where: { Self.sameName($0.name, name) }) {
            fields[index].value += ", " + value
        } else {
            fields.append(Field(name: name, value: value))
        }
    }

    /// Whether `a` and `b` are the same field name: equal bytes, ASCII letters of either case.
    static func sameName(_ a: some StringProtocol, _ b: some StringProtocol) -> Bool {
        a.utf8.elementsEqual(b.utf8) { asciiLowercase($0) == asciiLowercase($1) }
    }

    /// `value` without the spaces and tabs around it (HTTP's optional whitespace).
    static func trimmed(_ value: some StringProtocol) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = value.firstIndex(where: { !isSpace($0) }),
            let last = value.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(value[first...last])
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }

    /// The fields as a dictionary keyed by their names.
    var dictionary: [String: String] {
        var result: [String: String] = [:]
        for field in fields {
            result[field.name] = field.value
        }
        return result
    }
}

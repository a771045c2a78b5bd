/// HTTP header fields in the order they were set, looked up without regard to case, as
/// `URLRequest` and `HTTPURLResponse` keep them.
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
        fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Replaces the field named `name`, or removes it when `value` is `nil`.
    mutating func set(_ value: String?, for name: String) {
        guard let index = fields.firstIndex(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) else {
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
        if let index = fields.firstIndex(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) {
            fields[index].value += ", " + value
        } else {
            fields.append(Field(name: name, value: value))
        }
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

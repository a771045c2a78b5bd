/// Builds JSON from any value through `Mirror`, for entries that are not `Encodable`.
///
/// Strings, numbers and booleans map to JSON; dates become ISO 8601 strings; URLs, UUIDs and
/// data become strings; optionals unwrap to the value or `null`; collections become arrays,
/// dictionaries and structs or classes objects; an enum case without payload becomes its name,
/// one with payload `{"case": payload}`; anything else `String(describing:)`.
enum MirrorJSON {
    /// How deep nested values are followed before falling back to `String(describing:)`.
    static let maximumDepth = 32

    static func value(of subject: Any) -> JSONValue {
        var visiting: Set<ObjectIdentifier> = []
        return value(of: subject, depth: 0, visiting: &visiting)
    }

    private static func value(of subject: Any, depth: Int, visiting: inout Set<ObjectIdentifier>) -> JSONValue {
        if let leaf = leafValue(of: subject) {
            return leaf
        }
        let mirror = Mirror(reflecting: subject)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return .null }
            return value(of: wrapped, depth: depth, visiting: &visiting)
        }
        guard depth < maximumDepth else { return .string(String(describing: subject)) }

        var identity: ObjectIdentifier?
        if mirror.displayStyle == .class {
            let object = ObjectIdentifier(subject as AnyObject)
            guard !visiting.contains(object) else { return .string(String(describing: subject)) }
            visiting.insert(object)
            identity = object
        }
        defer { if let identity { visiting.remove(identity) } }

        func nested(_ child: Any) -> JSONValue {
            value(of: child, depth: depth + 1, visiting: &visiting)
        }

        switch mirror.displayStyle {
        case .collection?, .set?:
            return .array(mirror.children.map { nested($0.value) })
        case .dictionary?:
            var members: [String: JSONValue] = [:]
            for pair in mirror.children {
                let parts = Array(Mirror(reflecting: pair.value).children)
                guard parts.count == 2 else { continue }
                let key = parts[0].value as? String ?? String(describing: parts[0].value)
                members[key] = nested(parts[1].value)
            }
            return .object(members)
        case .tuple?:
            let children = Array(mirror.children)
            let labelled = children.allSatisfy { $0.label.map { !$0.hasPrefix(".") } ?? false }
            guard labelled, !children.isEmpty else {
                return .array(children.map { nested($0.value) })
            }
            return .object(Dictionary(children.map { ($0.label!, nested($0.value)) }, uniquingKeysWith: { a, _ in a }))
        case .enum?:
            guard let payload = mirror.children.first else {
                return .string(String(describing: subject))
            }
            return .object([payload.label ?? String(describing: subject): nested(payload.value)])
        case .struct?, .class?:
            var members: [String: JSONValue] = [:]
            var current: Mirror? = mirror
            while let level = current {
                for (index, child) in level.children.enumerated() where members[child.label ?? "_\(index)"] == nil {
                    members[child.label ?? "_\(index)"] = nested(child.value)
                }
                current = level.superclassMirror
            }
            return .object(members)
        default:
            if mirror.children.isEmpty {
                return .string(String(describing: subject))
            }
            return .array(mirror.children.map { nested($0.value) })
        }
    }

    /// Values written as JSON scalars, or `nil` for values to mirror.
    private static func leafValue(of subject: Any) -> JSONValue? {
        switch subject {
        case let text as String: return .string(text)
        case let text as Substring: return .string(String(text))
        case let character as Character: return .string(String(character))
        case let flag as Bool: return .bool(flag)
        case let integer as any BinaryInteger: return .number(String(describing: integer))
        case let number as Double: return number.isFinite ? .number(String(describing: number)) : .string(String(describing: number))
        case let number as Float: return number.isFinite ? .number(String(describing: number)) : .string(String(describing: number))
        case let number as CGFloat:
            return number.isFinite ? .number(String(describing: Double(number))) : .string(String(describing: number))
        case let number as Decimal: return number.isNaN ? .string("NaN") : .number(String(describing: number))
        case let date as Date: return .string(date.formatted(.iso8601))
        case let url as URL: return .string(url.absoluteString)
        case let uuid as UUID: return .string(uuid.uuidString)
        case let data as Data: return .string(data.base64EncodedString())
        default: return nil
        }
    }
}

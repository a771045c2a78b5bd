import Foundation

/// A dictionary of an Info.plist with accessors that throw a ``BundleError`` naming the file
/// and the dotted key when a value is missing or of the wrong type.
struct PropertyListDictionary {
    /// The file the dictionary comes from, as errors name it.
    let file: String
    /// The dotted path of this dictionary inside the file (`""` at the top level, `"NSExtension"` …).
    let path: String
    let values: [String: Any]

    /// Reads and parses the property list at `absolutePath`; its top level must be a dictionary.
    /// XML, binary and OpenStep formats are accepted.
    static func read(_ absolutePath: String, file: String, remedy: String) throws(BundleError) -> PropertyListDictionary {
        try parse(BundleFile.read(absolutePath, file: file, remedy: remedy), file: file)
    }

    /// Parses `data` as a property list whose top level is a dictionary (a binary one checked
    /// first: ``BinaryPropertyListCheck``).
    static func parse(_ data: Data, file: String) throws(BundleError) -> PropertyListDictionary {
        do {
            try BinaryPropertyListCheck.check(data)
        } catch {
            throw BundleError(file: file, message: error.description)
        }
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw BundleError(file: file, message: "is not a property list: \(Self.reason(error)); write it as an XML or binary plist")
        }
        guard case .dictionary(let values) = PropertyListValue(root) else {
            throw BundleError(
                file: file,
                message:
                    "is \(PropertyListValue(root).kind) at the top level; an Info.plist must be a dictionary (<plist><dict>…</dict></plist>)"
            )
        }
        return PropertyListDictionary(file: file, path: "", values: values)
    }

    /// The most specific reason Foundation gives for `error` (the parser's line and complaint when it has one).
    private static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        if let debug = ns.userInfo[NSDebugDescriptionErrorKey] as? String, !debug.isEmpty { return debug }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError { return underlying.localizedDescription }
        return ns.localizedDescription
    }

    /// The dotted name of `key` in this dictionary.
    func keyPath(_ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    /// An error about `key` (or this dictionary itself when `key` is `nil`); `message` follows the key's name.
    func error(_ key: String?, _ message: String) -> BundleError {
        if let key {
            return BundleError(file: file, key: keyPath(key), message: "\(keyPath(key)) \(message)")
        }
        return BundleError(file: file, key: path.isEmpty ? nil : path, message: path.isEmpty ? message : "\(path) \(message)")
    }

    /// The classified value of `key`, `nil` when absent.
    func value(_ key: String) -> PropertyListValue? {
        values[key].map(PropertyListValue.init)
    }

    /// A string value; `nil` when absent, an error when of another type.
    func string(_ key: String) throws(BundleError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let string) = value else {
            throw error(key, "is \(value.summary); it must be a string (<string>…</string>)")
        }
        return string
    }

    /// A non-empty string value; missing or empty is an error ending with `remedy`.
    func requiredString(_ key: String, remedy: String) throws(BundleError) -> String {
        guard let string = try string(key) else { throw error(key, "is missing; \(remedy)") }
        guard !string.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw error(key, "is empty; \(remedy)")
        }
        return string
    }

    /// A Boolean value; `nil` when absent, an error when of another type.
    func bool(_ key: String) throws(BundleError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let bool) = value else {
            throw error(key, "is \(value.summary); it must be a Boolean: <true/> or <false/>")
        }
        return bool
    }

    /// A nested dictionary; `nil` when absent, an error when of another type.
    func dictionary(_ key: String, expected: String) throws(BundleError) -> PropertyListDictionary? {
        guard let value = value(key) else { return nil }
        guard case .dictionary(let values) = value else {
            throw error(key, "is \(value.summary); it must be a dictionary (<dict>…</dict>) \(expected)")
        }
        return PropertyListDictionary(file: file, path: keyPath(key), values: values)
    }
}

/// What a `#Preview` expands to: a main-actor function whose body passes the macro's arguments
/// and closures, as written, to an initializer of the SDK's `Preview`, so that the compiler
/// type-checks them as it does for Apple's previews. The function is never called.
///
/// ```swift
/// #Preview(as: .systemSmall) {
///     MyWidget()
/// } timeline: {
///     SimpleEntry(date: .now)
/// }
/// // becomes
/// @MainActor func $s…fMu_() -> DeveloperToolsSupport.Preview {
/// DeveloperToolsSupport.Preview(as: .systemSmall) {
///     MyWidget()
/// } timeline: {
///     SimpleEntry(date: .now)
/// }
/// }
/// ```
struct PreviewExpansion {
    /// The type whose initializers take the arguments (`DeveloperToolsSupport.Preview`).
    let previewType: String
    /// The name of the function, unique to this use of the macro.
    let functionName: String

    /// The function for the use of the macro in `source` (leading comments and attributes
    /// included), or `nil` when `source` is not `#Name(arguments) closures…` or
    /// `#Name closures…`.
    func declaration(expanding source: String) -> String? {
        guard let arguments = Self.arguments(of: source) else { return nil }
        let call = arguments.hasPrefix("{") ? "\(previewType) \(arguments)" : previewType + arguments
        // The user's text goes in as it is, indentation and all (multi-line string literals
        // depend on it); it was written at the start of a line.
        return "@MainActor func \(functionName)() -> \(previewType) {\n\(call)\n}"
    }

    /// The name of the function for a use whose compiler discriminator is `discriminator`, as
    /// swift-syntax's `makeUniqueName("preview")` forms it (a name the compiler accepts from a
    /// macro that declares no names).
    static func uniqueName(discriminator: String) -> String {
        discriminator + "7previewfMu_"
    }

    /// The text after `#Name`: the argument list and trailing closures.
    static func arguments(of source: String) -> String? {
        var scanner = SourceScanner(Array(source.utf8))
        while true {
            scanner.skipTrivia()
            switch scanner.peek {
            case UInt8(ascii: "@"):
                scanner.advance()
                guard scanner.skipIdentifier() else { return nil }
                if scanner.peek == UInt8(ascii: "("), !scanner.skipBalancedParentheses() { return nil }
            case UInt8(ascii: "#"):
                scanner.advance()
                guard scanner.skipIdentifier() else { return nil }
                scanner.skipTrivia()
                guard scanner.peek == UInt8(ascii: "(") || scanner.peek == UInt8(ascii: "{") else { return nil }
                return scanner.rest
            default:
                // A modifier (`public`, `nonisolated`…) before the macro.
                guard scanner.skipIdentifier() else { return nil }
            }
        }
    }
}

/// A cursor over Swift source that knows whitespace, comments, identifiers and string literals.
struct SourceScanner {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    var rest: String { String(decoding: bytes[position...], as: UTF8.self) }

    mutating func advance() {
        position += 1
    }

    private func byte(at offset: Int) -> UInt8? {
        position + offset < bytes.count ? bytes[position + offset] : nil
    }

    /// Past whitespace, `//` comments and (nested) `/* */` comments.
    mutating func skipTrivia() {
        while let byte = peek {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                position += 1
            } else if byte == UInt8(ascii: "/"), self.byte(at: 1) == UInt8(ascii: "/") {
                while let next = peek, next != UInt8(ascii: "\n") { position += 1 }
            } else if byte == UInt8(ascii: "/"), self.byte(at: 1) == UInt8(ascii: "*") {
                var depth = 0
                repeat {
                    if peek == UInt8(ascii: "/"), self.byte(at: 1) == UInt8(ascii: "*") {
                        depth += 1
                        position += 2
                    } else if peek == UInt8(ascii: "*"), self.byte(at: 1) == UInt8(ascii: "/") {
                        depth -= 1
                        position += 2
                    } else {
                        position += 1
                    }
                } while depth > 0 && peek != nil
            } else {
                return
            }
        }
    }

    /// Past an identifier, dotted (`SwiftUI.MainActor`) or in backticks; `false` when there is
    /// none here.
    mutating func skipIdentifier() -> Bool {
        let start = position
        while let byte = peek {
            let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            let isOther = byte == UInt8(ascii: "_") || byte == UInt8(ascii: "`") || byte >= 0x80
            let isDot = byte == UInt8(ascii: ".") && position > start
            guard isLetter || (isDigit && position > start) || isOther || isDot else { break }
            position += 1
        }
        return position > start
    }

    /// Past a parenthesized list (`(iOS 17.0, *)`), nested parentheses and string literals
    /// included; `false` when it does not end.
    mutating func skipBalancedParentheses() -> Bool {
        var depth = 0
        while let byte = peek {
            position += 1
            switch byte {
            case UInt8(ascii: "("):
                depth += 1
            case UInt8(ascii: ")"):
                depth -= 1
                if depth == 0 { return true }
            case UInt8(ascii: "\""):
                while let next = peek, next != UInt8(ascii: "\"") {
                    position += next == UInt8(ascii: "\\") ? 2 : 1
                }
                position += 1
            default:
                break
            }
        }
        return false
    }
}

/// Apple's rules for `CFBundleIdentifier`: only ASCII letters, digits, hyphens and periods,
/// and an extension's identifier extends its app's identifier by at least one component.
enum BundleIdentifierRules {
    /// The first character Apple does not allow in a bundle identifier, if any.
    static func invalidCharacter(in identifier: String) -> Character? {
        identifier.first { c in
            !(c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == "."))
        }
    }

    /// Why `identifier` is not a valid bundle identifier, or `nil` when it is.
    static func problem(with identifier: String) -> String? {
        if let c = invalidCharacter(in: identifier) {
            return
                "contains \(c == " " ? "a space" : "\"\(c)\""); a bundle identifier may only contain letters A–Z and a–z, digits, hyphens and periods"
        }
        if identifier.hasPrefix(".") || identifier.hasSuffix(".") || identifier.contains("..") {
            return "has an empty component; write reverse-DNS components separated by single periods, e.g. com.example.Leaderboard"
        }
        return nil
    }

    /// Whether `extensionIdentifier` is `appIdentifier` followed by a period and more (Apple's rule for embedded extensions).
    static func isEmbeddable(_ extensionIdentifier: String, in appIdentifier: String) -> Bool {
        extensionIdentifier.count > appIdentifier.count + 1 && extensionIdentifier.hasPrefix(appIdentifier + ".")
    }
}

import SandglassIPC

private struct UnredactedKey: EnvironmentKey { static let defaultValue = false }
private struct PrivacySensitiveKey: EnvironmentKey { static let defaultValue = false }
private struct AccentableKey: EnvironmentKey { static let defaultValue = false }
private struct InvalidatableKey: EnvironmentKey { static let defaultValue = false }
private struct TextCaseKey: EnvironmentKey { static let defaultValue: Text.Case? = nil }
private struct TextStyleKey: EnvironmentKey { static let defaultValue = Text.Style() }

extension EnvironmentValues {
    /// Under `unredacted()`.
    var isUnredacted: Bool {
        get { self[UnredactedKey.self] }
        set { self[UnredactedKey.self] = newValue }
    }

    /// Under `privacySensitive()`.
    var isPrivacySensitive: Bool {
        get { self[PrivacySensitiveKey.self] }
        set { self[PrivacySensitiveKey.self] = newValue }
    }

    /// Under `widgetAccentable()`.
    var isAccentable: Bool {
        get { self[AccentableKey.self] }
        set { self[AccentableKey.self] = newValue }
    }

    /// Under `invalidatableContent()`.
    var isInvalidatable: Bool {
        get { self[InvalidatableKey.self] }
        set { self[InvalidatableKey.self] = newValue }
    }

    /// `textCase(_:)`.
    public var textCase: Text.Case? {
        get { self[TextCaseKey.self] }
        set { self[TextCaseKey.self] = newValue }
    }

    /// What `fontWeight`, `bold`, `italic`… on a view set for the text inside it.
    var textStyle: Text.Style {
        get { self[TextStyleKey.self] }
        set { self[TextStyleKey.self] = newValue }
    }

    /// Whether text and images here are drawn as placeholders.
    var isRedacted: Bool {
        redactionReasons.contains(.placeholder) && !isUnredacted
    }

    /// The flags of what is drawn here.
    var drawingFlags: ViewNode.Flags {
        var flags: ViewNode.Flags = []
        if isRedacted { flags.insert(.redacted) }
        if isPrivacySensitive { flags.insert(.privacySensitive) }
        if isAccentable { flags.insert(.accentable) }
        if isInvalidatable { flags.insert(.invalidatable) }
        return flags
    }
}

/// Characters that stand for common SF Symbols in a drawing (Sandglass does not ship Apple's
/// symbol font): plain symbols any system font has, no emoji; the symbol's name is kept as the
/// glyph's title; an unknown one is a diamond.
enum SymbolGlyphs {
    private static let glyphs: [(prefix: String, glyph: String)] = [
        ("star", "★"), ("heart", "♥"), ("sun.max", "☀"), ("sun", "☀"), ("moon", "☾"), ("cloud.sun", "☁"),
        ("cloud.rain", "☂"), ("cloud.bolt", "ϟ"), ("cloud.snow", "❄"), ("snowflake", "❄"), ("cloud", "☁"),
        ("bolt", "ϟ"), ("flame", "▲"), ("drop", "●"), ("thermometer", "⊺"), ("umbrella", "☂"),
        ("checkmark.circle", "✔"), ("checkmark", "✓"), ("xmark", "✕"), ("plus", "+"), ("minus", "−"),
        ("circle.fill", "●"), ("circle", "○"), ("square.fill", "■"), ("square", "□"), ("triangle", "▲"),
        ("arrow.up", "↑"), ("arrow.down", "↓"), ("arrow.left", "←"), ("arrow.right", "→"),
        ("chevron.right", "›"), ("chevron.left", "‹"), ("chevron.up", "˄"), ("chevron.down", "˅"),
        ("clock", "◷"), ("alarm", "◷"), ("timer", "◷"), ("calendar", "▦"), ("bell", "♪"),
        ("location", "➤"), ("mappin", "⌖"), ("map", "▦"), ("house", "⌂"), ("car", "▭"), ("tram", "▣"),
        ("bus", "▣"), ("airplane", "✈"), ("bicycle", "⊗"), ("figure.walk", "♙"), ("trophy", "♛"),
        ("sportscourt", "▭"), ("battery", "▭"), ("wifi", "≋"), ("gear", "⚙"), ("person", "♙"),
        ("envelope", "✉"), ("phone", "☎"), ("music", "♪"), ("play", "▶"), ("pause", "‖"), ("stop", "■"),
        ("lock", "⊡"), ("leaf", "❦"), ("cart", "⊔"), ("book", "▯"), ("flag", "⚑"), ("exclamationmark", "!"),
        ("questionmark", "?"), ("info", "ℹ"), ("chart", "↗"), ("list", "☰"), ("trash", "⌫"), ("pencil", "✎")
    ]

    static func glyph(for name: String) -> String {
        glyphs.first { name == $0.prefix || name.hasPrefix($0.prefix + ".") || name.hasPrefix($0.prefix) }?.glyph ?? "◆"
    }
}

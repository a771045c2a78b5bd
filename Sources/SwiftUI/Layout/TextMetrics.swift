/// The advance widths of the system font, for laying text out without the font: Helvetica's
/// widths for ASCII (close to SF Pro's), an em for CJK, 1.25 em for emoji, 0.6 em for
/// monospaced text, widened with the weight. The host draws each run stretched to the width
/// measured here, so the layout and the drawing agree whatever font the browser has.
enum TextMetrics {
    /// Thousandths of an em for U+0020 … U+007E.
    private static let ascii: [UInt16] = [
        278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
        556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
        1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
        667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
        333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
        556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584
    ]

    /// The advance of `character` in ems.
    static func advance(of character: Character, monospaced: Bool) -> CGFloat {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        let v = scalar.value
        if monospaced { return isWide(v) ? 1.2 : 0.6 }
        if v >= 0x20 && v <= 0x7E { return CGFloat(ascii[Int(v - 0x20)]) / 1000 }
        if character.unicodeScalars.contains(where: { $0.properties.isEmojiPresentation }) || (v >= 0x1F000 && v <= 0x1FAFF) {
            return 1.25
        }
        if isWide(v) { return 1 }
        switch v {
        case 0x2026: return 1 // …
        case 0x2013: return 0.556 // –
        case 0x2014: return 1 // —
        case 0x00A0, 0x202F, 0x2009: return 0.278
        case 0x00B0: return 0.4 // °
        case 0x2022, 0x00B7: return 0.35
        default: return 0.556
        }
    }

    private static func isWide(_ v: UInt32) -> Bool {
        (v >= 0x1100 && v <= 0x115F) || (v >= 0x2E80 && v <= 0xA4CF) || (v >= 0xAC00 && v <= 0xD7A3)
            || (v >= 0xF900 && v <= 0xFAFF) || (v >= 0xFF00 && v <= 0xFF60) || (v >= 0x20000 && v <= 0x3FFFD)
    }

    /// How much wider a weight draws than regular.
    static func weightFactor(_ weight: UInt16) -> CGFloat {
        1 + (CGFloat(weight) - 400) / 300 * 0.05
    }

    /// The width of `text` in a font of `size` points.
    static func width(of text: String, size: CGFloat, weight: UInt16, monospaced: Bool, monospacedDigits: Bool) -> CGFloat {
        var ems: CGFloat = 0
        for character in text {
            if monospacedDigits, character.isASCII, character.isNumber {
                ems += 0.6
            } else {
                ems += advance(of: character, monospaced: monospaced)
            }
        }
        return ems * size * weightFactor(weight)
    }
}

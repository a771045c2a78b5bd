import SandglassIPC

/// A font: a text style of the system font (`.headline`, `.caption`…), a system font of a
/// size, or a custom font (drawn with the system font's metrics), with its weight, design and
/// traits. Sizes are those of Dynamic Type's default (Large) size.
///
/// ```swift
/// Text("Score").font(.system(size: 34, weight: .bold, design: .rounded))
/// Text("Updated").font(.caption2.italic())
/// ```
public struct Font: Hashable, Sendable {
    var size: CGFloat
    var weight: Weight
    var design: Design
    var isItalic = false
    var hasMonospacedDigits = false
    var leading: Leading = .standard
    /// A custom font's name, kept for the record.
    var customName: String?

    init(size: CGFloat, weight: Weight = .regular, design: Design = .default) {
        self.size = size
        self.weight = weight
        self.design = design
    }

    init(_ style: TextStyle, design: Design = .default, weight: Weight? = nil) {
        self.init(size: style.pointSize, weight: weight ?? style.defaultWeight, design: design)
    }

    public static let largeTitle = Font(.largeTitle)
    public static let title = Font(.title)
    public static let title2 = Font(.title2)
    public static let title3 = Font(.title3)
    public static let headline = Font(.headline)
    public static let subheadline = Font(.subheadline)
    public static let body = Font(.body)
    public static let callout = Font(.callout)
    public static let footnote = Font(.footnote)
    public static let caption = Font(.caption)
    public static let caption2 = Font(.caption2)
    /// The size the extra-large title of iOS 17 uses.
    public static let extraLargeTitle = Font(size: 36, weight: .bold)
    public static let extraLargeTitle2 = Font(size: 28, weight: .bold)

    /// The system font of a size.
    public static func system(size: CGFloat, weight: Weight? = nil, design: Design? = nil) -> Font {
        Font(size: size, weight: weight ?? .regular, design: design ?? .default)
    }

    /// The system font of a text style.
    public static func system(_ style: TextStyle, design: Design? = nil, weight: Weight? = nil) -> Font {
        Font(style, design: design ?? .default, weight: weight)
    }

    /// A font by name; drawn with the system font's metrics.
    public static func custom(_ name: String, size: CGFloat) -> Font {
        var font = Font(size: size)
        font.customName = name
        return font
    }

    /// A font by name that scales with a text style; drawn with the system font's metrics.
    public static func custom(_ name: String, size: CGFloat, relativeTo textStyle: TextStyle) -> Font {
        custom(name, size: size)
    }

    /// A font by name that does not scale; drawn with the system font's metrics.
    public static func custom(_ name: String, fixedSize: CGFloat) -> Font {
        custom(name, size: fixedSize)
    }

    /// This font with a weight.
    public func weight(_ weight: Weight) -> Font {
        var font = self
        font.weight = weight
        return font
    }

    /// This font, bold.
    public func bold() -> Font { weight(.bold) }

    /// This font, italic.
    public func italic() -> Font {
        var font = self
        font.isItalic = true
        return font
    }

    /// This font with digits of one width.
    public func monospacedDigit() -> Font {
        var font = self
        font.hasMonospacedDigits = true
        return font
    }

    /// This font's monospaced design.
    public func monospaced() -> Font {
        var font = self
        font.design = .monospaced
        return font
    }

    /// This font with tighter or looser line spacing.
    public func leading(_ leading: Leading) -> Font {
        var font = self
        font.leading = leading
        return font
    }

    /// The weight of a font.
    public struct Weight: Hashable, Sendable {
        let value: UInt16

        public static let ultraLight = Weight(value: 100)
        public static let thin = Weight(value: 200)
        public static let light = Weight(value: 300)
        public static let regular = Weight(value: 400)
        public static let medium = Weight(value: 500)
        public static let semibold = Weight(value: 600)
        public static let bold = Weight(value: 700)
        public static let heavy = Weight(value: 800)
        public static let black = Weight(value: 900)
    }

    /// The design of the system font.
    public enum Design: Hashable, Sendable {
        case `default`, serif, rounded, monospaced

        var payload: TextRun.Design {
            switch self {
            case .default: .default
            case .serif: .serif
            case .rounded: .rounded
            case .monospaced: .monospaced
            }
        }
    }

    /// The text styles of Dynamic Type.
    public enum TextStyle: Hashable, Sendable, CaseIterable {
        case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption, caption2
        case extraLargeTitle, extraLargeTitle2

        var pointSize: CGFloat {
            switch self {
            case .extraLargeTitle: 36
            case .largeTitle: 34
            case .title, .extraLargeTitle2: 28
            case .title2: 22
            case .title3: 20
            case .headline, .body: 17
            case .callout: 16
            case .subheadline: 15
            case .footnote: 13
            case .caption: 12
            case .caption2: 11
            }
        }

        var defaultWeight: Weight {
            switch self {
            case .headline: .semibold
            case .extraLargeTitle, .extraLargeTitle2: .bold
            default: .regular
            }
        }
    }

    /// Line spacing of a font.
    public enum Leading: Hashable, Sendable {
        case standard, tight, loose
    }

    /// The height of a line, ascender to descender plus the leading.
    var lineHeight: CGFloat {
        let base = (size * 1.193).rounded(.up)
        switch leading {
        case .standard: return base
        case .tight: return base - 2
        case .loose: return base + 2
        }
    }

    /// The distance from a line's top to its baseline.
    var ascent: CGFloat { (size * 0.952 + (lineHeight - size * 1.193) / 2).rounded() }
}

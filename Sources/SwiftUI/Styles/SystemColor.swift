import SandglassIPC

/// The system's colours in the light and the dark appearance (UIKit's values, which SwiftUI's
/// `Color.red`, `.primary`… resolve to on iOS).
enum SystemColor {
    static func pair(_ light: UInt32, _ dark: UInt32) -> ColorPair {
        ColorPair(light: RGBA(light), dark: RGBA(dark))
    }

    static let red = pair(0xFF3B30FF, 0xFF453AFF)
    static let orange = pair(0xFF9500FF, 0xFF9F0AFF)
    static let yellow = pair(0xFFCC00FF, 0xFFD60AFF)
    static let green = pair(0x34C759FF, 0x30D158FF)
    static let mint = pair(0x00C7BEFF, 0x63E6E2FF)
    static let teal = pair(0x30B0C7FF, 0x40C8E0FF)
    static let cyan = pair(0x32ADE6FF, 0x64D2FFFF)
    static let blue = pair(0x007AFFFF, 0x0A84FFFF)
    static let indigo = pair(0x5856D6FF, 0x5E5CE6FF)
    static let purple = pair(0xAF52DEFF, 0xBF5AF2FF)
    static let pink = pair(0xFF2D55FF, 0xFF375FFF)
    static let brown = pair(0xA2845EFF, 0xAC8E68FF)
    static let gray = pair(0x8E8E93FF, 0x8E8E93FF)
    static let white = pair(0xFFFFFFFF, 0xFFFFFFFF)
    static let black = pair(0x000000FF, 0x000000FF)
    static let clear = pair(0x00000000, 0x00000000)

    /// `label`, `secondaryLabel`, `tertiaryLabel`, `quaternaryLabel`.
    static let labels = [
        pair(0x000000FF, 0xFFFFFFFF),
        pair(0x3C3C4399, 0xEBEBF599),
        pair(0x3C3C434D, 0xEBEBF54D),
        pair(0x3C3C432E, 0xEBEBF529)
    ]
    static var label: ColorPair { labels[0] }

    /// `systemFill` … `quaternarySystemFill`.
    static let fills = [
        pair(0x78788033, 0x7878805C),
        pair(0x78788029, 0x78788052),
        pair(0x7676801F, 0x7676803D),
        pair(0x74748014, 0x7676802E)
    ]

    /// `separator`.
    static let separator = pair(0x3C3C434A, 0x54545899)
    /// A widget's background when it sets none: `systemBackground`, and the dark widget grey.
    static let widgetBackground = pair(0xFFFFFFFF, 0x1C1C1EFF)
    /// The grey of redacted text and images.
    static let redaction = pair(0x3C3C432E, 0xEBEBF529)
}

extension ColorPair {
    var paint: ViewPaint { .color(self) }
}

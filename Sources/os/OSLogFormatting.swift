import Foundation

/// The width and alignment of an interpolated value's column.
public struct OSLogStringAlignment {
    enum Side: Sendable {
        case none
        case left
        case right
    }

    let side: Side
    let columns: () -> Int

    /// No alignment.
    public static var none: OSLogStringAlignment { OSLogStringAlignment(side: .none, columns: { 0 }) }

    /// Padded with spaces on the right to `columns` characters.
    public static func left(columns: @autoclosure @escaping () -> Int) -> OSLogStringAlignment {
        OSLogStringAlignment(side: .left, columns: columns)
    }

    /// Padded with spaces on the left to `columns` characters.
    public static func right(columns: @autoclosure @escaping () -> Int) -> OSLogStringAlignment {
        OSLogStringAlignment(side: .right, columns: columns)
    }

    func apply(to text: String) -> String {
        let width = side == .none ? 0 : columns()
        let padding = String(repeating: " ", count: max(0, width - text.count))
        switch side {
        case .none: return text
        case .left: return text + padding
        case .right: return padding + text
        }
    }
}

/// How an interpolated integer is written.
public struct OSLogIntegerFormatting {
    let radix: Int
    let explicitPositiveSign: Bool
    let includePrefix: Bool
    let uppercase: Bool
    let minDigits: () -> Int

    /// Decimal.
    public static var decimal: OSLogIntegerFormatting { .decimal() }
    /// Hexadecimal.
    public static var hex: OSLogIntegerFormatting { .hex() }
    /// Octal.
    public static var octal: OSLogIntegerFormatting { .octal() }

    public static func decimal(explicitPositiveSign: Bool = false) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(
            radix: 10, explicitPositiveSign: explicitPositiveSign, includePrefix: false, uppercase: false, minDigits: { 0 })
    }

    public static func decimal(explicitPositiveSign: Bool = false, minDigits: @autoclosure @escaping () -> Int) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(
            radix: 10, explicitPositiveSign: explicitPositiveSign, includePrefix: false, uppercase: false, minDigits: minDigits)
    }

    public static func hex(
        explicitPositiveSign: Bool = false, includePrefix: Bool = false, uppercase: Bool = false
    ) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(
            radix: 16, explicitPositiveSign: explicitPositiveSign, includePrefix: includePrefix, uppercase: uppercase, minDigits: { 0 })
    }

    public static func hex(
        explicitPositiveSign: Bool = false, includePrefix: Bool = false, uppercase: Bool = false,
        minDigits: @autoclosure @escaping () -> Int
    ) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(
            radix: 16, explicitPositiveSign: explicitPositiveSign, includePrefix: includePrefix, uppercase: uppercase, minDigits: minDigits)
    }

    public static func octal(
        explicitPositiveSign: Bool = false, includePrefix: Bool = false, uppercase: Bool = false
    ) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(
            radix: 8, explicitPositiveSign: explicitPositiveSign, includePrefix: includePrefix, uppercase: uppercase, minDigits: { 0 })
    }

    public static func octal(
        explicitPositiveSign: Bool = false, includePrefix: Bool = false, uppercase: Bool = false,
        minDigits: @autoclosure @escaping () -> Int
    ) -> OSLogIntegerFormatting {
        OSLogIntegerFormatting(
            radix: 8, explicitPositiveSign: explicitPositiveSign, includePrefix: includePrefix, uppercase: uppercase, minDigits: minDigits)
    }

    func format<T: BinaryInteger>(_ value: T) -> String {
        var digits = String(value.magnitude, radix: radix, uppercase: uppercase)
        let minimum = minDigits()
        if digits.count < minimum { digits = String(repeating: "0", count: minimum - digits.count) + digits }
        if includePrefix { digits = (radix == 16 ? (uppercase ? "0X" : "0x") : radix == 8 ? "0" : "") + digits }
        if value < 0 { return "-" + digits }
        return explicitPositiveSign ? "+" + digits : digits
    }
}

/// How an interpolated floating-point number is written.
public struct OSLogFloatFormatting {
    enum Style: Sendable {
        case fixed
        case hex
        case exponential
        case hybrid
    }

    let style: Style
    let precision: (() -> Int)?
    let explicitPositiveSign: Bool
    let uppercase: Bool

    /// `%f`: fixed point, six decimals.
    public static var fixed: OSLogFloatFormatting { .fixed() }
    /// `%a`: hexadecimal.
    public static var hex: OSLogFloatFormatting { .hex() }
    /// `%e`: exponential.
    public static var exponential: OSLogFloatFormatting { .exponential() }
    /// `%g`: fixed or exponential, whichever is shorter.
    public static var hybrid: OSLogFloatFormatting { .hybrid() }

    public static func fixed(explicitPositiveSign: Bool = false, uppercase: Bool = false) -> OSLogFloatFormatting {
        OSLogFloatFormatting(style: .fixed, precision: nil, explicitPositiveSign: explicitPositiveSign, uppercase: uppercase)
    }

    public static func fixed(
        precision: @autoclosure @escaping () -> Int, explicitPositiveSign: Bool = false,
        uppercase: Bool = false
    ) -> OSLogFloatFormatting {
        OSLogFloatFormatting(style: .fixed, precision: precision, explicitPositiveSign: explicitPositiveSign, uppercase: uppercase)
    }

    public static func hex(explicitPositiveSign: Bool = false, uppercase: Bool = false) -> OSLogFloatFormatting {
        OSLogFloatFormatting(style: .hex, precision: nil, explicitPositiveSign: explicitPositiveSign, uppercase: uppercase)
    }

    public static func exponential(explicitPositiveSign: Bool = false, uppercase: Bool = false) -> OSLogFloatFormatting {
        OSLogFloatFormatting(style: .exponential, precision: nil, explicitPositiveSign: explicitPositiveSign, uppercase: uppercase)
    }

    public static func exponential(
        precision: @autoclosure @escaping () -> Int, explicitPositiveSign: Bool = false,
        uppercase: Bool = false
    ) -> OSLogFloatFormatting {
        OSLogFloatFormatting(style: .exponential, precision: precision, explicitPositiveSign: explicitPositiveSign, uppercase: uppercase)
    }

    public static func hybrid(explicitPositiveSign: Bool = false, uppercase: Bool = false) -> OSLogFloatFormatting {
        OSLogFloatFormatting(style: .hybrid, precision: nil, explicitPositiveSign: explicitPositiveSign, uppercase: uppercase)
    }

    public static func hybrid(
        precision: @autoclosure @escaping () -> Int, explicitPositiveSign: Bool = false,
        uppercase: Bool = false
    ) -> OSLogFloatFormatting {
        OSLogFloatFormatting(style: .hybrid, precision: precision, explicitPositiveSign: explicitPositiveSign, uppercase: uppercase)
    }

    func format(_ value: Double) -> String {
        var conversion: String =
            switch style {
            case .fixed: "f"
            case .hex: "a"
            case .exponential: "e"
            case .hybrid: "g"
            }
        if uppercase { conversion = conversion.uppercased() }
        let sign = explicitPositiveSign ? "+" : ""
        let digits = precision.map { ".\(max(0, min($0(), 64)))" } ?? ""
        return String(format: "%\(sign)\(digits)\(conversion)", value)
    }
}

/// How an interpolated Boolean is written.
public enum OSLogBoolFormat: Sendable {
    /// `true` / `false`.
    case truth
    /// `YES` / `NO`.
    case answer

    func format(_ value: Bool) -> String {
        switch self {
        case .truth: value ? "true" : "false"
        case .answer: value ? "YES" : "NO"
        }
    }
}

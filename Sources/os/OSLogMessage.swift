import Foundation

/// A log message written as a string literal with interpolations, each with its privacy and
/// format: `"fetched \(count) items for \(user, privacy: .private)"`.
///
/// The values are read when the message is logged; what is redacted never leaves the process.
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral {
    let interpolation: OSLogInterpolation

    public init(stringInterpolation: OSLogInterpolation) {
        interpolation = stringInterpolation
    }

    public init(stringLiteral value: String) {
        var interpolation = OSLogInterpolation(literalCapacity: value.count, interpolationCount: 0)
        interpolation.appendLiteral(value)
        self.interpolation = interpolation
    }

    /// The message as the log shows it.
    func text(revealsPrivate: Bool) -> String {
        interpolation.segments.map { $0.text(revealsPrivate: revealsPrivate) }.joined()
    }
}

/// The parts of an ``OSLogMessage``: literal text and interpolated values with their privacy,
/// alignment and format. The compiler builds it; it is not made directly.
public struct OSLogInterpolation: StringInterpolationProtocol {
    struct Segment {
        let value: () -> String
        let privacy: OSLogPrivacy
        /// Numbers and Booleans: public under `.auto`.
        let isScalar: Bool
        let align: OSLogStringAlignment

        func text(revealsPrivate: Bool) -> String {
            align.apply(to: privacy.apply(to: value(), isScalar: isScalar, revealsPrivate: revealsPrivate))
        }
    }

    var segments: [Segment] = []

    public init(literalCapacity: Int, interpolationCount: Int) {
        segments.reserveCapacity(interpolationCount * 2 + 1)
    }

    public mutating func appendLiteral(_ literal: String) {
        guard !literal.isEmpty else { return }
        segments.append(Segment(value: { literal }, privacy: .public, isScalar: true, align: .none))
    }

    private mutating func append(
        _ value: @escaping () -> String, _ privacy: OSLogPrivacy, scalar: Bool,
        _ align: OSLogStringAlignment = .none
    ) {
        segments.append(Segment(value: value, privacy: privacy, isScalar: scalar, align: align))
    }

    // MARK: strings and descriptions

    public mutating func appendInterpolation(
        _ argumentString: @autoclosure @escaping () -> String,
        align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {
        append(argumentString, privacy, scalar: false, align)
    }

    public mutating func appendInterpolation<T: CustomStringConvertible>(
        _ value: @autoclosure @escaping () -> T,
        align: OSLogStringAlignment = .none,
        privacy: OSLogPrivacy = .auto
    ) {
        // Integers of other widths and other numbers arrive here too: public under .auto.
        let scalar = T.self is any BinaryInteger.Type || T.self is any BinaryFloatingPoint.Type || T.self == Bool.self
        append({ value().description }, privacy, scalar: scalar, align)
    }

    public mutating func appendInterpolation(
        _ value: @autoclosure @escaping () -> any Any.Type,
        align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {
        append({ String(describing: value()) }, privacy, scalar: false, align)
    }

    public mutating func appendInterpolation(
        _ error: @autoclosure @escaping () -> any Error,
        privacy: OSLogPrivacy = .auto, attributes: String = ""
    ) {
        append({ String(describing: error()) }, privacy, scalar: false)
    }

    public mutating func appendInterpolation(
        _ value: @autoclosure @escaping () -> NSObject,
        privacy: OSLogPrivacy = .auto, attributes: String = ""
    ) {
        append({ value().description }, privacy, scalar: false)
    }

    // MARK: numbers and Booleans (public under .auto)

    public mutating func appendInterpolation(
        _ number: @autoclosure @escaping () -> Int,
        format: OSLogIntegerFormatting = .decimal,
        align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {
        append({ format.format(number()) }, privacy, scalar: true, align)
    }

    public mutating func appendInterpolation<T: FixedWidthInteger>(
        _ number: @autoclosure @escaping () -> T,
        format: OSLogIntegerFormatting = .decimal,
        align: OSLogStringAlignment = .none,
        privacy: OSLogPrivacy = .auto
    ) {
        append({ format.format(number()) }, privacy, scalar: true, align)
    }

    public mutating func appendInterpolation<T: FixedWidthInteger>(
        _ number: @autoclosure @escaping () -> T,
        format: OSLogIntegerFormatting = .decimal,
        align: OSLogStringAlignment = .none,
        privacy: OSLogPrivacy = .auto, attributes: String
    ) {
        append({ format.format(number()) }, privacy, scalar: true, align)
    }

    public mutating func appendInterpolation(
        _ number: @autoclosure @escaping () -> Double,
        format: OSLogFloatFormatting = .fixed,
        align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {
        append({ format.format(number()) }, privacy, scalar: true, align)
    }

    public mutating func appendInterpolation(
        _ number: @autoclosure @escaping () -> Double,
        format: OSLogFloatFormatting = .fixed,
        align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto,
        attributes: String
    ) {
        append({ format.format(number()) }, privacy, scalar: true, align)
    }

    public mutating func appendInterpolation(
        _ number: @autoclosure @escaping () -> Float,
        format: OSLogFloatFormatting = .fixed,
        align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {
        append({ format.format(Double(number())) }, privacy, scalar: true, align)
    }

    public mutating func appendInterpolation(
        _ number: @autoclosure @escaping () -> CGFloat,
        format: OSLogFloatFormatting = .fixed,
        align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {
        append({ format.format(Double(number())) }, privacy, scalar: true, align)
    }

    public mutating func appendInterpolation(
        _ boolean: @autoclosure @escaping () -> Bool,
        format: OSLogBoolFormat = .truth, privacy: OSLogPrivacy = .auto
    ) {
        append({ format.format(boolean()) }, privacy, scalar: true)
    }
}

/// The key of a localized text, written as a string literal with interpolations.
///
/// ```swift
/// Text("\(entry.points) points, \(entry.average, specifier: "%.1f") a game")
/// Text("Kick-off \(entry.kickoff, style: .relative)")
/// ```
public struct LocalizedStringKey: ExpressibleByStringInterpolation, Sendable {
    var segments: [Text.Segment]

    /// A key from a string.
    public init(_ value: String) {
        segments = [Text.Segment(content: .verbatim(value))]
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public init(stringInterpolation: StringInterpolation) {
        segments = stringInterpolation.segments
    }

    /// The pieces of a key as its literal is read.
    public struct StringInterpolation: StringInterpolationProtocol {
        var segments: [Text.Segment] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        private mutating func append(_ string: String) {
            if case .verbatim(let previous)? = segments.last?.content, segments.last?.style.font == nil {
                segments[segments.count - 1].content = .verbatim(previous + string)
            } else {
                segments.append(Text.Segment(content: .verbatim(string)))
            }
        }

        public mutating func appendLiteral(_ literal: String) {
            append(literal)
        }

        /// A string.
        public mutating func appendInterpolation(_ string: String) {
            append(string)
        }

        /// A number, formatted as the key's format specifier does (`%lld`, `%lf`).
        public mutating func appendInterpolation<T: _FormatSpecifiable>(_ value: T) {
            append(value._formatted(nil))
        }

        /// A number with a `printf` specifier (`"%.1f"`).
        public mutating func appendInterpolation<T: _FormatSpecifiable>(_ value: T, specifier: String) {
            append(value._formatted(specifier))
        }

        /// A text, with its styles.
        public mutating func appendInterpolation(_ text: Text) {
            segments += text.segments
        }

        /// An inline image.
        public mutating func appendInterpolation(_ image: Image) {
            segments.append(Text.Segment(content: .symbol(image.inlineName)))
        }

        /// A date in a style.
        public mutating func appendInterpolation(_ date: Date, style: Text.DateStyle) {
            segments.append(Text.Segment(content: .date(date, style)))
        }

        /// A range of dates.
        public mutating func appendInterpolation(_ dates: ClosedRange<Date>) {
            append(Text.intervalText(dates))
        }

        /// A timer over an interval.
        public mutating func appendInterpolation(
            timerInterval: ClosedRange<Date>, pauseTime: Date? = nil,
            countsDown: Bool = true, showsHours: Bool = true
        ) {
            segments += Text(timerInterval: timerInterval, pauseTime: pauseTime, countsDown: countsDown, showsHours: showsHours).segments
        }

        /// A value formatted by a format style.
        public mutating func appendInterpolation<F: FormatStyle>(_ input: F.FormatInput, format: F)
        where F.FormatInput: Equatable, F.FormatOutput == String {
            append(format.format(input))
        }

        /// A value formatted by a `Formatter`.
        public mutating func appendInterpolation<Subject: ReferenceConvertible>(_ subject: Subject, formatter: Formatter?) {
            append(formatter?.string(for: subject) ?? "\(subject)")
        }

        /// An attributed string's characters.
        public mutating func appendInterpolation(_ attributedString: AttributedString) {
            append(String(attributedString.characters))
        }
    }
}

/// A value a localized key formats with a `printf` specifier: the integers and floating-point
/// types.
public protocol _FormatSpecifiable: Equatable {
    /// The value formatted with `specifier`, or as the key's default specifier does.
    func _formatted(_ specifier: String?) -> String
}

extension Int: _FormatSpecifiable {
    public func _formatted(_ specifier: String?) -> String { specifier.map { String(format: $0, self) } ?? String(self) }
}
extension Int8: _FormatSpecifiable {
    public func _formatted(_ specifier: String?) -> String { specifier.map { String(format: $0, Int(self)) } ?? String(self) }
}
extension Int16: _FormatSpecifiable {
    public func _formatted(_ specifier: String?) -> String { specifier.map { String(format: $0, Int(self)) } ?? String(self) }
}
extension Int32: _FormatSpecifiable {
    public func _formatted(_ specifier: String?) -> String { specifier.map { String(format: $0, self) } ?? String(self) }
}
extension Int64: _FormatSpecifiable {
    public func _formatted(_ specifier: String?) -> String { specifier.map { String(format: $0, self) } ?? String(self) }
}
extension UInt: _FormatSpecifiable {
    public func _formatted(_ specifier: String?) -> String { specifier.map { String(format: $0, self) } ?? String(self) }
}
extension UInt8: _FormatSpecifiable {
    public func _formatted(_ specifier: String?) -> String { specifier.map { String(format: $0, UInt(self)) } ?? String(self) }
}
extension UInt16: _FormatSpecifiable {
    public func _formatted(_ specifier: String?) -> String { specifier.map { String(format: $0, UInt(self)) } ?? String(self) }
}
extension UInt32: _FormatSpecifiable {
    public func _formatted(_ specifier: String?) -> String { specifier.map { String(format: $0, self) } ?? String(self) }
}
extension UInt64: _FormatSpecifiable {
    public func _formatted(_ specifier: String?) -> String { specifier.map { String(format: $0, self) } ?? String(self) }
}
extension Double: _FormatSpecifiable {
    public func _formatted(_ specifier: String?) -> String { String(format: specifier ?? "%lf", self) }
}
extension Float: _FormatSpecifiable {
    public func _formatted(_ specifier: String?) -> String { String(format: specifier ?? "%f", Double(self)) }
}
extension CGFloat: _FormatSpecifiable {
    public func _formatted(_ specifier: String?) -> String { String(format: specifier ?? "%lf", Double(self)) }
}

import SandglassIPC

/// Text: verbatim, from a localized key with interpolations, a date in a style (some of them
/// change as time passes), a timer, or several texts joined with `+`.
///
/// ```swift
/// Text("Round \(entry.round)")
/// Text(entry.kickoff, style: .relative)
/// Text("Ends ") + Text(entry.end, style: .time).bold()
/// ```
///
/// A key is shown as written (Sandglass does not look up `Localizable.strings`); a `Double`
/// interpolated without a specifier shows as SwiftUI shows it, `%lf` (`3.140000`).
public struct Text: Sendable {
    /// What a piece of text is made of.
    enum Content: Sendable {
        case verbatim(String)
        case date(Date, DateStyle)
        case timer(ClosedRange<Date>, pauseTime: Date?, countsDown: Bool, showsHours: Bool)
        /// An inline `Image(systemName:)` or `Image("name")`.
        case symbol(String)
    }

    /// The style a piece of text asks for itself; what it leaves `nil` comes from the environment.
    struct Style: Sendable {
        var font: Font?
        var weight: Font.Weight?
        var design: Font.Design?
        var italic: Bool?
        var monospacedDigit: Bool?
        var foreground: AnyShapeStyle?
        var underline: Bool?
        var strikethrough: Bool?

        /// Fills what this style leaves open from `outer` (the inner piece wins).
        func over(_ outer: Style) -> Style {
            Style(
                font: font ?? outer.font, weight: weight ?? outer.weight, design: design ?? outer.design,
                italic: italic ?? outer.italic, monospacedDigit: monospacedDigit ?? outer.monospacedDigit,
                foreground: foreground ?? outer.foreground, underline: underline ?? outer.underline,
                strikethrough: strikethrough ?? outer.strikethrough)
        }
    }

    struct Segment: Sendable {
        var content: Content
        var style = Style()
    }

    var segments: [Segment]

    init(segments: [Segment]) {
        self.segments = segments
    }

    /// A text shown exactly as given.
    public init(verbatim content: String) {
        segments = [Segment(content: .verbatim(content))]
    }

    /// A text shown as given (a string variable is not a localized key).
    @_disfavoredOverload
    public init<S: StringProtocol>(_ content: S) {
        self.init(verbatim: String(content))
    }

    /// A localized key, with its interpolations.
    public init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil) {
        segments = key.segments
    }

    /// An attributed string's characters.
    public init(_ attributedContent: AttributedString) {
        self.init(verbatim: String(attributedContent.characters))
    }

    /// A date in a style; `.relative`, `.offset` and `.timer` change as time passes.
    public init(_ date: Date, style: DateStyle) {
        segments = [Segment(content: .date(date, style))]
    }

    /// A range of dates (`10:00 – 11:30 AM`).
    public init(_ dates: ClosedRange<Date>) {
        self.init(verbatim: Text.intervalText(dates))
    }

    /// An interval of dates.
    public init(_ interval: DateInterval) {
        self.init(interval.start...interval.end)
    }

    /// A timer over an interval, counting down (or up) as time passes.
    public init(timerInterval: ClosedRange<Date>, pauseTime: Date? = nil, countsDown: Bool = true, showsHours: Bool = true) {
        segments = [Segment(content: .timer(timerInterval, pauseTime: pauseTime, countsDown: countsDown, showsHours: showsHours))]
    }

    /// A value formatted by a format style (`Text(entry.score, format: .number)`).
    public init<F: FormatStyle>(_ input: F.FormatInput, format: F) where F.FormatInput: Equatable, F.FormatOutput == String {
        self.init(verbatim: format.format(input))
    }

    /// A value formatted by a `Formatter`.
    public init<Subject: ReferenceConvertible>(_ subject: Subject, formatter: Formatter) {
        self.init(verbatim: formatter.string(for: subject) ?? "")
    }

    /// An inline image.
    public init(_ image: Image) {
        segments = [Segment(content: .symbol(image.inlineName))]
    }

    /// Two texts, one after the other.
    public static func + (lhs: Text, rhs: Text) -> Text {
        Text(segments: lhs.segments + rhs.segments)
    }

    /// How a date is shown.
    public struct DateStyle: Hashable, Sendable {
        enum Kind: Hashable, Sendable {
            case time, date, relative, offset, timer
        }

        let kind: Kind

        /// The time of day: `11:23 AM`.
        public static let time = DateStyle(kind: .time)
        /// The day: `June 3, 2019`.
        public static let date = DateStyle(kind: .date)
        /// The time to or since the date, changing: `2 hr, 23 min`.
        public static let relative = DateStyle(kind: .relative)
        /// The offset from now, changing: `+2 hours`.
        public static let offset = DateStyle(kind: .offset)
        /// A clock counting to or from the date: `2:32`, `36:59:01`.
        public static let timer = DateStyle(kind: .timer)
    }

    /// Where a text that does not fit is cut.
    public enum TruncationMode: Hashable, Sendable {
        case head, tail, middle
    }

    /// A case transformation (`textCase(.uppercase)`).
    public enum Case: Hashable, Sendable {
        case uppercase, lowercase
    }

    static func intervalText(_ dates: ClosedRange<Date>) -> String {
        let formatter = DateFormatter()
        formatter.dateStyle = .none
        formatter.timeStyle = .short
        return "\(formatter.string(from: dates.lowerBound)) – \(formatter.string(from: dates.upperBound))"
    }
}

extension Text: View, PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    public var body: Never { primitiveBody(Self.self) }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] {
        [TextNode(runs: resolvedRuns(context), context: context)]
    }
}

extension Text {
    // MARK: modifiers that keep a Text (so that texts can still be joined with `+`)

    private func styled(_ change: (inout Style) -> Void) -> Text {
        var change0 = Style()
        change(&change0)
        return Text(
            segments: segments.map { segment in
                var segment = segment
                segment.style = segment.style.over(change0)
                return segment
            })
    }

    /// This text in `font`, unless a part sets its own.
    public func font(_ font: Font?) -> Text { styled { $0.font = font } }
    /// This text in a weight.
    public func fontWeight(_ weight: Font.Weight?) -> Text { styled { $0.weight = weight } }
    /// This text in a design of the system font.
    public func fontDesign(_ design: Font.Design?) -> Text { styled { $0.design = design } }
    /// This text in bold.
    public func bold() -> Text { fontWeight(.bold) }
    /// This text in bold, or not.
    public func bold(_ isActive: Bool) -> Text { isActive ? bold() : self }
    /// This text in italics.
    public func italic() -> Text { styled { $0.italic = true } }
    /// This text in italics, or not.
    public func italic(_ isActive: Bool) -> Text { isActive ? italic() : self }
    /// This text with digits of one width.
    public func monospacedDigit() -> Text { styled { $0.monospacedDigit = true } }
    /// This text in the monospaced design.
    public func monospaced(_ isActive: Bool = true) -> Text { isActive ? fontDesign(.monospaced) : self }
    /// This text in a colour.
    public func foregroundColor(_ color: Color?) -> Text { styled { $0.foreground = color.map(AnyShapeStyle.init) } }
    /// This text in a style.
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> Text { styled { $0.foreground = AnyShapeStyle(style) } }
    /// This text underlined.
    public func underline(_ isActive: Bool = true, color: Color? = nil) -> Text { styled { $0.underline = isActive } }
    /// This text struck through.
    public func strikethrough(_ isActive: Bool = true, color: Color? = nil) -> Text { styled { $0.strikethrough = isActive } }
    /// Spacing between characters (measured without it).
    public func kerning(_ kerning: CGFloat) -> Text { self }
    /// Spacing between characters (measured without it).
    public func tracking(_ tracking: CGFloat) -> Text { self }
    /// The text moved up or down from its baseline (drawn on it).
    public func baselineOffset(_ baselineOffset: CGFloat) -> Text { self }
}

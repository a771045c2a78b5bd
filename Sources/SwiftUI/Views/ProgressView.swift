import SandglassIPC

/// Progress toward a total, as a bar (or a ring with `.circular`), with an optional label; or
/// over a time interval, advancing as time passes.
///
/// ```swift
/// ProgressView(value: entry.done, total: entry.total)
/// ProgressView(timerInterval: entry.start...entry.end, countsDown: false)
/// ```
nonisolated public struct ProgressView<Label: View, CurrentValueLabel: View>: View {
    let fraction: Double?
    let timer: DynamicText?
    let label: Label?
    let currentValueLabel: CurrentValueLabel?

    public var body: Never { primitiveBody(Self.self) }
}

extension ProgressView where CurrentValueLabel == EmptyView {
    /// Progress of an unknown amount (drawn still, as a widget shows it).
    public init() where Label == EmptyView {
        fraction = nil
        timer = nil
        label = nil
        currentValueLabel = nil
    }

    /// Progress toward `total`.
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0) where Label == EmptyView {
        self.init(value: value, total: total, label: { EmptyView() })
    }

    /// Progress toward `total`, with a label.
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0, @ViewBuilder label: () -> Label) {
        fraction = value.map { total > 0 ? min(max(Double($0 / total), 0), 1) : 0 }
        timer = nil
        self.label = label()
        currentValueLabel = nil
    }

    /// Progress toward `total`, titled.
    public init<V: BinaryFloatingPoint>(_ titleKey: LocalizedStringKey, value: V?, total: V = 1.0) where Label == Text {
        self.init(value: value, total: total, label: { Text(titleKey) })
    }

    /// Progress over a time interval, filling (or emptying, counting down) as time passes.
    public init(timerInterval: ClosedRange<Date>, countsDown: Bool = true) where Label == EmptyView {
        self.init(timerInterval: timerInterval, countsDown: countsDown, label: { EmptyView() })
    }

    /// Progress over a time interval, with a label.
    public init(timerInterval: ClosedRange<Date>, countsDown: Bool = true, @ViewBuilder label: () -> Label) {
        fraction = nil
        timer = DynamicText(
            style: .timerInterval, date: timerInterval.lowerBound.timeIntervalSince1970,
            end: timerInterval.upperBound.timeIntervalSince1970, countsDown: countsDown)
        self.label = label()
        currentValueLabel = nil
    }
}

extension ProgressView: PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] {
        let environment = context.environment
        let tint = environment.tintPaint ?? SystemColor.blue.paint
        var value = fraction.map(Float.init)
        if let timer {
            let f = timer.fraction(at: context.session.date.timeIntervalSince1970)
            value = Float(timer.countsDown ? 1 - f : f)
        }
        let circular = environment.progressViewStyle == .circular
        let meter = MeterValue(style: circular ? .circular : .linear, fraction: value, timer: timer)
        let bar = MeterNode(kind: .progress, meter: meter, tint: tint, flags: environment.drawingFlags, thickness: circular ? 20 : 4)
        let labels = (label.map { resolveNodes($0, context) } ?? []) + (currentValueLabel.map { resolveNodes($0, context) } ?? [])
        guard !labels.isEmpty else { return [bar] }
        return [StackNode(axis: .vertical, alignment: 0, verticalAlignment: .center, spacing: 4, children: labels + [bar])]
    }
}

/// The styles of `ProgressView`.
public protocol ProgressViewStyle: Sendable {}

/// A style of `ProgressView` this module draws.
public struct ProgressViewStyleChoice: ProgressViewStyle, Hashable {
    enum Kind: Sendable, Hashable { case linear, circular }
    let kind: Kind
}

extension ProgressViewStyle where Self == ProgressViewStyleChoice {
    public static var automatic: ProgressViewStyleChoice { ProgressViewStyleChoice(kind: .linear) }
    public static var linear: ProgressViewStyleChoice { ProgressViewStyleChoice(kind: .linear) }
    public static var circular: ProgressViewStyleChoice { ProgressViewStyleChoice(kind: .circular) }
}

private struct ProgressStyleKey: EnvironmentKey { static let defaultValue = ProgressViewStyleChoice.Kind.linear }

extension EnvironmentValues {
    var progressViewStyle: ProgressViewStyleChoice.Kind {
        get { self[ProgressStyleKey.self] }
        set { self[ProgressStyleKey.self] = newValue }
    }
}

extension View {
    /// How progress views inside show.
    public func progressViewStyle<S: ProgressViewStyle>(_ style: S) -> ModifiedContent<Self, _PrimitiveModifier> {
        environment(\.progressViewStyle, (style as? ProgressViewStyleChoice)?.kind ?? .linear)
    }
}

import SandglassIPC

/// A value in a range, shown as a bar or a ring, with labels.
///
/// ```swift
/// Gauge(value: entry.battery, in: 0...1) {
///     Image(systemName: "battery.100")
/// } currentValueLabel: {
///     Text("\(Int(entry.battery * 100))")
/// }
/// .gaugeStyle(.accessoryCircular)
/// ```
nonisolated public struct Gauge<Label: View, CurrentValueLabel: View, BoundsLabel: View, MarkedValueLabels: View>: View {
    let fraction: Double
    let label: Label
    let currentValueLabel: CurrentValueLabel?
    let minimumValueLabel: BoundsLabel?
    let maximumValueLabel: BoundsLabel?

    public var body: Never { primitiveBody(Self.self) }
}

extension Gauge where CurrentValueLabel == EmptyView, BoundsLabel == EmptyView, MarkedValueLabels == EmptyView {
    public init<V: BinaryFloatingPoint>(value: V, in bounds: ClosedRange<V> = 0...1, @ViewBuilder label: () -> Label) {
        fraction = Gauge.fraction(value, bounds)
        self.label = label()
        currentValueLabel = nil
        minimumValueLabel = nil
        maximumValueLabel = nil
    }
}

extension Gauge where BoundsLabel == EmptyView, MarkedValueLabels == EmptyView {
    public init<V: BinaryFloatingPoint>(
        value: V, in bounds: ClosedRange<V> = 0...1, @ViewBuilder label: () -> Label,
        @ViewBuilder currentValueLabel: () -> CurrentValueLabel
    ) {
        fraction = Gauge.fraction(value, bounds)
        self.label = label()
        self.currentValueLabel = currentValueLabel()
        minimumValueLabel = nil
        maximumValueLabel = nil
    }
}

extension Gauge where MarkedValueLabels == EmptyView {
    public init<V: BinaryFloatingPoint>(
        value: V, in bounds: ClosedRange<V> = 0...1, @ViewBuilder label: () -> Label,
        @ViewBuilder currentValueLabel: () -> CurrentValueLabel,
        @ViewBuilder minimumValueLabel: () -> BoundsLabel,
        @ViewBuilder maximumValueLabel: () -> BoundsLabel
    ) {
        fraction = Gauge.fraction(value, bounds)
        self.label = label()
        self.currentValueLabel = currentValueLabel()
        self.minimumValueLabel = minimumValueLabel()
        self.maximumValueLabel = maximumValueLabel()
    }
}

extension Gauge {
    static func fraction<V: BinaryFloatingPoint>(_ value: V, _ bounds: ClosedRange<V>) -> Double {
        let span = Double(bounds.upperBound - bounds.lowerBound)
        guard span > 0 else { return 0 }
        let f = Double(value - bounds.lowerBound) / span
        return f.isFinite ? min(max(f, 0), 1) : 0
    }
}

extension Gauge: PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] {
        let environment = context.environment
        let tint = environment.tintPaint ?? environment.foregroundPaint
        let flags = environment.drawingFlags
        var small = context
        small.environment.font = small.environment.font ?? .caption2
        let current = currentValueLabel.map { resolveNodes($0, small) } ?? []
        let bounds = (minimumValueLabel.map { resolveNodes($0, small) } ?? [], maximumValueLabel.map { resolveNodes($0, small) } ?? [])
        let label = resolveNodes(self.label, small)
        let style = environment.gaugeStyle
        let meter = MeterValue(style: style, fraction: Float(fraction))
        switch style {
        case .circular, .circularDot:
            // A ring with the current value in it, the bounds (or the label) under it.
            let ring = MeterNode(kind: .gauge, meter: meter, tint: tint, flags: flags, thickness: 58)
            let center = LayoutNode.single(current.isEmpty ? label : current)
            var under = bounds.0 + [SpacerNode(minLength: 0)] + bounds.1
            if bounds.0.isEmpty && bounds.1.isEmpty && !current.isEmpty { under = label }
            let bottom = StackNode(axis: .horizontal, alignment: 0.5, verticalAlignment: .center, spacing: 0, children: under)
            return [
                ZStackNode(
                    alignment: .center,
                    children: [
                        ring, center,
                        PaddingNode(insets: EdgeInsets(top: 36, leading: 10, bottom: 0, trailing: 10), child: bottom)
                    ])
            ]
        case .linear, .linearDot:
            let bar = MeterNode(kind: .gauge, meter: meter, tint: tint, flags: flags, thickness: style == .linearDot ? 6 : 8)
            let row = StackNode(
                axis: .horizontal, alignment: 0.5, verticalAlignment: .center, spacing: 6,
                children: bounds.0 + [bar] + bounds.1)
            let top = StackNode(
                axis: .horizontal, alignment: 0.5, verticalAlignment: .center, spacing: nil,
                children: label + [SpacerNode(minLength: 0)] + current)
            return [StackNode(axis: .vertical, alignment: 0, verticalAlignment: .center, spacing: 4, children: [top, row])]
        }
    }
}

/// The styles of `Gauge`.
public protocol GaugeStyle: Sendable {}

/// A style of `Gauge` this module draws.
public struct GaugeStyleChoice: GaugeStyle, Hashable {
    let style: MeterValue.Style
}

extension GaugeStyle where Self == GaugeStyleChoice {
    /// A bar (iOS's default).
    public static var automatic: GaugeStyleChoice { GaugeStyleChoice(style: .linear) }
    /// A bar filled to the value.
    public static var linearCapacity: GaugeStyleChoice { GaugeStyleChoice(style: .linear) }
    /// A bar with a dot at the value (Lock Screen).
    public static var accessoryLinear: GaugeStyleChoice { GaugeStyleChoice(style: .linearDot) }
    /// A bar filled to the value (Lock Screen).
    public static var accessoryLinearCapacity: GaugeStyleChoice { GaugeStyleChoice(style: .linear) }
    /// An open ring with a dot at the value (Lock Screen).
    public static var accessoryCircular: GaugeStyleChoice { GaugeStyleChoice(style: .circularDot) }
    /// A ring filled to the value (Lock Screen).
    public static var accessoryCircularCapacity: GaugeStyleChoice { GaugeStyleChoice(style: .circular) }
}

private struct GaugeStyleKey: EnvironmentKey { static let defaultValue = MeterValue.Style.linear }

extension EnvironmentValues {
    var gaugeStyle: MeterValue.Style {
        get { self[GaugeStyleKey.self] }
        set { self[GaugeStyleKey.self] = newValue }
    }
}

extension View {
    /// How gauges inside show.
    public func gaugeStyle<S: GaugeStyle>(_ style: S) -> ModifiedContent<Self, _PrimitiveModifier> {
        environment(\.gaugeStyle, (style as? GaugeStyleChoice)?.style ?? .linear)
    }
}

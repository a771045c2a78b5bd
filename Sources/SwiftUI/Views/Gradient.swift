import SandglassIPC

/// Colours along a line, for gradients.
public struct Gradient: Hashable, Sendable {
    /// A colour at a location (0…1).
    public struct Stop: Hashable, Sendable {
        public var color: Color
        public var location: CGFloat

        public init(color: Color, location: CGFloat) {
            self.color = color
            self.location = location
        }
    }

    public var stops: [Stop]

    public init(stops: [Stop]) {
        self.stops = stops
    }

    /// Colours spread evenly.
    public init(colors: [Color]) {
        let last = CGFloat(max(colors.count - 1, 1))
        stops = colors.enumerated().map { Stop(color: $0.element, location: CGFloat($0.offset) / last) }
    }

    func payload(_ environment: EnvironmentValues) -> [GradientStopPayload] {
        stops.map { stop in
            let color: ColorPair =
                switch stop.color.paint(in: environment) {
                case .color(let pair): pair
                default: SystemColor.gray
                }
            return GradientStopPayload(color: color, location: Float(stop.location))
        }
    }
}

/// A gradient along a line from `startPoint` to `endPoint` of the view's frame.
///
/// ```swift
/// LinearGradient(colors: [.blue, .purple], startPoint: .top, endPoint: .bottom)
/// ```
public struct LinearGradient: ShapeStyle, PaintSource {
    public func _resolvePaint(in environment: EnvironmentValues) -> _ResolvedPaint {
        _ResolvedPaint(paint: paint(in: environment))
    }

    let gradient: Gradient
    let startPoint: UnitPoint
    let endPoint: UnitPoint

    public init(gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) {
        self.gradient = gradient
        self.startPoint = startPoint
        self.endPoint = endPoint
    }

    public init(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(colors: colors), startPoint: startPoint, endPoint: endPoint)
    }

    public init(stops: [Gradient.Stop], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(stops: stops), startPoint: startPoint, endPoint: endPoint)
    }

    func paint(in environment: EnvironmentValues) -> ViewPaint {
        .linearGradient(
            gradient.payload(environment), startX: Float(startPoint.x), startY: Float(startPoint.y),
            endX: Float(endPoint.x), endY: Float(endPoint.y))
    }

}

/// A gradient in circles about `center`, from `startRadius` to `endRadius` points.
public struct RadialGradient: ShapeStyle, PaintSource {
    public func _resolvePaint(in environment: EnvironmentValues) -> _ResolvedPaint {
        _ResolvedPaint(paint: paint(in: environment))
    }

    let gradient: Gradient
    let center: UnitPoint
    let startRadius: CGFloat
    let endRadius: CGFloat

    public init(gradient: Gradient, center: UnitPoint, startRadius: CGFloat, endRadius: CGFloat) {
        self.gradient = gradient
        self.center = center
        self.startRadius = startRadius
        self.endRadius = endRadius
    }

    public init(colors: [Color], center: UnitPoint, startRadius: CGFloat, endRadius: CGFloat) {
        self.init(gradient: Gradient(colors: colors), center: center, startRadius: startRadius, endRadius: endRadius)
    }

    public init(stops: [Gradient.Stop], center: UnitPoint, startRadius: CGFloat, endRadius: CGFloat) {
        self.init(gradient: Gradient(stops: stops), center: center, startRadius: startRadius, endRadius: endRadius)
    }

    func paint(in environment: EnvironmentValues) -> ViewPaint {
        .radialGradient(
            gradient.payload(environment), centerX: Float(center.x), centerY: Float(center.y),
            startRadius: Float(startRadius), endRadius: Float(endRadius))
    }

}

extension LinearGradient: View, PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    public var body: Never { primitiveBody(Self.self) }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] {
        [ShapeNode(shape: .rectangle, fill: paint(in: context.environment))]
    }
}

extension RadialGradient: View, PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    public var body: Never { primitiveBody(Self.self) }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] {
        [ShapeNode(shape: .rectangle, fill: paint(in: context.environment))]
    }
}

/// A colour's own gradient (`Color.blue.gradient`): lighter at the top, the colour at the bottom.
public struct AnyGradient: ShapeStyle, PaintSource, Hashable {
    public func _resolvePaint(in environment: EnvironmentValues) -> _ResolvedPaint {
        _ResolvedPaint(paint: paint(in: environment))
    }

    let color: Color

    func paint(in environment: EnvironmentValues) -> ViewPaint {
        guard case .color(let pair) = color.paint(in: environment) else { return color.paint(in: environment) }
        func lighter(_ c: RGBA) -> RGBA {
            func up(_ v: UInt8) -> Double { (Double(v) + (255 - Double(v)) * 0.15) / 255 }
            return RGBA(red: up(c.red), green: up(c.green), blue: up(c.blue), alpha: Double(c.alpha) / 255)
        }
        let top = ColorPair(light: lighter(pair.light), dark: lighter(pair.dark))
        return .linearGradient(
            [GradientStopPayload(color: top, location: 0), GradientStopPayload(color: pair, location: 1)],
            startX: 0.5, startY: 0, endX: 0.5, endY: 1)
    }
}

extension Color {
    /// A gradient of this colour, as iOS draws `Color.blue.gradient`.
    public var gradient: AnyGradient { AnyGradient(color: self) }
}

import SandglassIPC

/// A 2D shape: a view that fills the space it is offered with the foreground style, unless
/// `fill` or `stroke` says otherwise.
///
/// ```swift
/// RoundedRectangle(cornerRadius: 8).fill(.orange.gradient)
/// Circle().stroke(.secondary, lineWidth: 4)
/// ```
public protocol Shape: View, Sendable {
    /// The outline of the shape in `rect`.
    func path(in rect: CGRect) -> Path

    /// How the SDK draws the shape (its own, opaque): by kind, or by its path.
    func _outline() -> _ShapeOutline
}

/// How a shape is drawn (the SDK's own, opaque).
public struct _ShapeOutline {
    let outline: ShapeOutline
    var trim: (CGFloat, CGFloat)?
}

extension Shape {
    /// The shape filled with the foreground style.
    public var body: _ShapeView<Self, ForegroundStyle> {
        _ShapeView(shape: self, style: ForegroundStyle(), stroke: nil)
    }

    /// The shape filled with `content`.
    public func fill<S: ShapeStyle>(_ content: S = .foreground, style: FillStyle = FillStyle()) -> _ShapeView<Self, S> {
        _ShapeView(shape: self, style: content, stroke: nil)
    }

    /// The shape's outline drawn with `content`, centred on the outline.
    public func stroke<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1) -> _ShapeView<Self, S> {
        _ShapeView(shape: self, style: content, stroke: StrokeStyle(lineWidth: lineWidth))
    }

    /// The shape's outline drawn with `content` in a stroke style.
    public func stroke<S: ShapeStyle>(_ content: S, style: StrokeStyle) -> _ShapeView<Self, S> {
        _ShapeView(shape: self, style: content, stroke: style)
    }

    /// The shape's outline in the foreground style.
    public func stroke(lineWidth: CGFloat = 1) -> _ShapeView<Self, ForegroundStyle> {
        _ShapeView(shape: self, style: ForegroundStyle(), stroke: StrokeStyle(lineWidth: lineWidth))
    }

    /// The shape's outline in the foreground style, in a stroke style.
    public func stroke(style: StrokeStyle) -> _ShapeView<Self, ForegroundStyle> {
        _ShapeView(shape: self, style: ForegroundStyle(), stroke: style)
    }

    /// The shape's outline drawn inside its bounds.
    public func strokeBorder<S: ShapeStyle>(_ content: S = .foreground, lineWidth: CGFloat = 1) -> _ShapeView<Self, S> {
        _ShapeView(shape: self, style: content, stroke: StrokeStyle(lineWidth: lineWidth), inside: true)
    }

    /// The shape's outline drawn inside its bounds, in a stroke style.
    public func strokeBorder<S: ShapeStyle>(_ content: S = .foreground, style: StrokeStyle) -> _ShapeView<Self, S> {
        _ShapeView(shape: self, style: content, stroke: style, inside: true)
    }

    /// The part of the outline from `from` to `to` (0…1).
    public func trim(from startFraction: CGFloat = 0, to endFraction: CGFloat = 1) -> _TrimmedShape<Self> {
        _TrimmedShape(base: self, from: startFraction, to: endFraction)
    }

    /// A shape drawn by its path.
    public func _outline() -> _ShapeOutline {
        let shape = self
        return _ShapeOutline(outline: .custom { shape.path(in: $0) })
    }

    /// How the shape is drawn, for the renderer.
    var outline: ShapeOutline { _outline().outline }
}

/// A shape this module draws by its kind rather than its path.
protocol BuiltInShape: Shape {
    var builtInOutline: ShapeOutline { get }
}

extension BuiltInShape {
    public func _outline() -> _ShapeOutline { _ShapeOutline(outline: builtInOutline) }
}

/// A shape filled or stroked with a style.
nonisolated public struct _ShapeView<Content: Shape, Style: ShapeStyle>: View {
    let shape: Content
    let style: Style
    let stroke: StrokeStyle?
    var inside = false

    public var body: Never { primitiveBody(Self.self) }
}

extension _ShapeView: PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] {
        let paint = style.resolvedPaint(in: context.environment)
        let shapeOutline = shape._outline()
        let outline = shapeOutline.outline
        let trim = shapeOutline.trim
        let stroke = self.stroke.map {
            ViewStroke(paint: paint, lineWidth: Float($0.lineWidth), roundCap: $0.lineCap == .round, dash: $0.dash.map { Float($0) })
        }
        return [
            ShapeNode(
                outline: outline, fill: stroke == nil ? paint : nil, stroke: stroke, strokeInside: inside, trim: trim,
                flags: context.environment.drawingFlags)
        ]
    }
}

/// How a shape is filled (only the default, non-zero, is drawn).
public struct FillStyle: Sendable, Hashable {
    public var isEOFilled: Bool
    public var isAntialiased: Bool

    public init(eoFill: Bool = false, antialiased: Bool = true) {
        isEOFilled = eoFill
        isAntialiased = antialiased
    }
}

/// How an outline is drawn.
public struct StrokeStyle: Sendable, Hashable {
    public var lineWidth: CGFloat
    public var lineCap: LineCap
    public var lineJoin: LineJoin
    public var miterLimit: CGFloat
    public var dash: [CGFloat]
    public var dashPhase: CGFloat

    public init(
        lineWidth: CGFloat = 1, lineCap: LineCap = .butt, lineJoin: LineJoin = .miter, miterLimit: CGFloat = 10,
        dash: [CGFloat] = [], dashPhase: CGFloat = 0
    ) {
        self.lineWidth = lineWidth
        self.lineCap = lineCap
        self.lineJoin = lineJoin
        self.miterLimit = miterLimit
        self.dash = dash
        self.dashPhase = dashPhase
    }

    /// The end of a line.
    public enum LineCap: Sendable, Hashable {
        case butt, round, square
    }

    /// The corner of a line.
    public enum LineJoin: Sendable, Hashable {
        case miter, round, bevel
    }
}

/// The part of a shape's outline that `trim(from:to:)` keeps.
nonisolated public struct _TrimmedShape<Base: Shape>: Shape {
    let base: Base
    let from: CGFloat
    let to: CGFloat

    public func path(in rect: CGRect) -> Path { base.path(in: rect) }

    @MainActor public func _outline() -> _ShapeOutline {
        _ShapeOutline(outline: base.outline, trim: (from, to))
    }
}

/// A rectangle.
nonisolated public struct Rectangle: Shape, BuiltInShape {
    public init() {}
    public func path(in rect: CGRect) -> Path { Path(rect) }
    var builtInOutline: ShapeOutline { .builtIn(.rectangle) }
}

/// A rectangle with rounded corners.
nonisolated public struct RoundedRectangle: Shape, BuiltInShape {
    public var cornerSize: CGSize
    public var style: RoundedCornerStyle

    public init(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) {
        cornerSize = CGSize(width: cornerRadius, height: cornerRadius)
        self.style = style
    }

    public init(cornerSize: CGSize, style: RoundedCornerStyle = .continuous) {
        self.cornerSize = cornerSize
        self.style = style
    }

    public func path(in rect: CGRect) -> Path { Path(roundedRect: rect, cornerRadius: cornerSize.width, style: style) }
    var builtInOutline: ShapeOutline { .builtIn(.roundedRectangle(radius: Float(cornerSize.width))) }
}

/// A circle, as big as fits the frame, centred.
nonisolated public struct Circle: Shape, BuiltInShape {
    public init() {}

    public func path(in rect: CGRect) -> Path {
        let side = min(rect.width, rect.height)
        return Path(ellipseIn: CGRect(x: rect.midX - side / 2, y: rect.midY - side / 2, width: side, height: side))
    }

    var builtInOutline: ShapeOutline {
        .custom { rect in
            let side = min(rect.width, rect.height)
            return Path(ellipseIn: CGRect(x: rect.midX - side / 2, y: rect.midY - side / 2, width: side, height: side))
        }
    }
}

/// A capsule: a rectangle with fully rounded ends.
nonisolated public struct Capsule: Shape, BuiltInShape {
    public var style: RoundedCornerStyle

    public init(style: RoundedCornerStyle = .circular) {
        self.style = style
    }

    public func path(in rect: CGRect) -> Path { Path(roundedRect: rect, cornerRadius: min(rect.width, rect.height) / 2) }
    var builtInOutline: ShapeOutline { .builtIn(.capsule) }
}

/// An ellipse filling the frame.
nonisolated public struct Ellipse: Shape, BuiltInShape {
    public init() {}
    public func path(in rect: CGRect) -> Path { Path(ellipseIn: rect) }
    var builtInOutline: ShapeOutline { .builtIn(.ellipse) }
}

/// The shape of the container the view is in — the widget's rounded rectangle, its corners
/// concentric with the widget's own.
nonisolated public struct ContainerRelativeShape: Shape, BuiltInShape {
    public init() {}
    public func path(in rect: CGRect) -> Path { Path(roundedRect: rect, cornerRadius: 22) }
    var builtInOutline: ShapeOutline { .containerRelative }
}

extension Path: Shape {
    public func path(in rect: CGRect) -> Path { self }
}

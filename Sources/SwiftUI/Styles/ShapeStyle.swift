import SandglassIPC

/// What fills a shape or colours text: a `Color`, a gradient, a hierarchical style
/// (`.primary`, `.secondary`…), `.tint`, `.fill`, `.background`.
public protocol ShapeStyle: Sendable {
    /// What the style paints in `environment` (the SDK's own, opaque).
    func _resolvePaint(in environment: EnvironmentValues) -> _ResolvedPaint
}

extension ShapeStyle {
    /// A style defined outside this module is drawn as the primary colour.
    public func _resolvePaint(in environment: EnvironmentValues) -> _ResolvedPaint {
        _ResolvedPaint(paint: SystemColor.label.paint)
    }

    /// The paint of any style.
    func resolvedPaint(in environment: EnvironmentValues) -> ViewPaint {
        _resolvePaint(in: environment).paint
    }
}

/// A style's paint (the SDK's own, opaque).
public struct _ResolvedPaint {
    let paint: ViewPaint
}

/// A style this module knows how to draw.
protocol PaintSource: ShapeStyle {
    /// The paint in `environment` (light and dark colours together).
    func paint(in environment: EnvironmentValues) -> ViewPaint
}

extension ViewPaint {
    /// The paint with every colour's alpha multiplied by `opacity`.
    func withOpacity(_ opacity: Double) -> ViewPaint {
        guard opacity < 1 else { return self }
        func fade(_ c: ColorPair) -> ColorPair { ColorPair(light: c.light.withOpacity(opacity), dark: c.dark.withOpacity(opacity)) }
        func fade(_ stops: [GradientStopPayload]) -> [GradientStopPayload] {
            stops.map { GradientStopPayload(color: fade($0.color), location: $0.location) }
        }
        switch self {
        case .color(let c): return .color(fade(c))
        case .linearGradient(let s, let sx, let sy, let ex, let ey):
            return .linearGradient(fade(s), startX: sx, startY: sy, endX: ex, endY: ey)
        case .radialGradient(let s, let cx, let cy, let r0, let r1):
            return .radialGradient(fade(s), centerX: cx, centerY: cy, startRadius: r0, endRadius: r1)
        case .named: return self
        }
    }
}

extension RGBA {
    func withOpacity(_ opacity: Double) -> RGBA {
        let alpha = UInt32((Double(self.alpha) * min(max(opacity, 0), 1)).rounded())
        return RGBA(value & 0xFFFF_FF00 | alpha)
    }
}

/// The levels of the foreground style: `.primary`, `.secondary`, `.tertiary`, `.quaternary`.
public struct HierarchicalShapeStyle: ShapeStyle, PaintSource {
    public func _resolvePaint(in environment: EnvironmentValues) -> _ResolvedPaint {
        _ResolvedPaint(paint: paint(in: environment))
    }

    let level: Int

    public static let primary = HierarchicalShapeStyle(level: 0)
    public static let secondary = HierarchicalShapeStyle(level: 1)
    public static let tertiary = HierarchicalShapeStyle(level: 2)
    public static let quaternary = HierarchicalShapeStyle(level: 3)

    func paint(in environment: EnvironmentValues) -> ViewPaint {
        if let custom = environment.foregroundStyle {
            return custom.paint(in: environment).withOpacity(HierarchicalShapeStyle.opacities[level])
        }
        return SystemColor.labels[level].paint
    }

    /// What the levels of a custom foreground style keep of its opacity.
    static let opacities: [Double] = [1, 0.6, 0.3, 0.18]
}

extension ShapeStyle where Self == HierarchicalShapeStyle {
    /// The foreground style's first level: labels.
    public static var primary: HierarchicalShapeStyle { .primary }
    /// The second level: secondary labels.
    public static var secondary: HierarchicalShapeStyle { .secondary }
    /// The third level.
    public static var tertiary: HierarchicalShapeStyle { .tertiary }
    /// The fourth level.
    public static var quaternary: HierarchicalShapeStyle { .quaternary }
}

/// A level of another style (`.fill.tertiary`, `Color.blue.secondary`).
public struct _LevelOfStyle<Base: ShapeStyle>: ShapeStyle, PaintSource {
    public func _resolvePaint(in environment: EnvironmentValues) -> _ResolvedPaint {
        _ResolvedPaint(paint: paint(in: environment))
    }

    let base: Base
    let level: Int

    func paint(in environment: EnvironmentValues) -> ViewPaint {
        if base is FillShapeStyle { return SystemColor.fills[level].paint }
        return base.resolvedPaint(in: environment).withOpacity(HierarchicalShapeStyle.opacities[level])
    }
}

extension ShapeStyle {
    /// The second level of this style.
    public var secondary: _LevelOfStyle<Self> { _LevelOfStyle(base: self, level: 1) }
    /// The third level of this style.
    public var tertiary: _LevelOfStyle<Self> { _LevelOfStyle(base: self, level: 2) }
    /// The fourth level of this style.
    public var quaternary: _LevelOfStyle<Self> { _LevelOfStyle(base: self, level: 3) }

    /// This style made more transparent.
    public func opacity(_ opacity: Double) -> _OpacityStyle<Self> { _OpacityStyle(base: self, opacity: opacity) }
}

/// A style made more transparent.
public struct _OpacityStyle<Base: ShapeStyle>: ShapeStyle, PaintSource {
    public func _resolvePaint(in environment: EnvironmentValues) -> _ResolvedPaint {
        _ResolvedPaint(paint: paint(in: environment))
    }

    let base: Base
    let opacity: Double

    func paint(in environment: EnvironmentValues) -> ViewPaint {
        base.resolvedPaint(in: environment).withOpacity(opacity)
    }
}

/// The system's fill colours for shapes on the background: `.fill`, `.fill.secondary`, ….
public struct FillShapeStyle: ShapeStyle, PaintSource {
    public func _resolvePaint(in environment: EnvironmentValues) -> _ResolvedPaint {
        _ResolvedPaint(paint: paint(in: environment))
    }

    public init() {}

    func paint(in environment: EnvironmentValues) -> ViewPaint { SystemColor.fills[0].paint }
}

extension ShapeStyle where Self == FillShapeStyle {
    /// The system fill for shapes (a translucent grey).
    public static var fill: FillShapeStyle { FillShapeStyle() }
}

/// The background colour of the widget (`.background`).
public struct BackgroundStyle: ShapeStyle, PaintSource {
    public func _resolvePaint(in environment: EnvironmentValues) -> _ResolvedPaint {
        _ResolvedPaint(paint: paint(in: environment))
    }

    public init() {}

    func paint(in environment: EnvironmentValues) -> ViewPaint { SystemColor.widgetBackground.paint }
}

extension ShapeStyle where Self == BackgroundStyle {
    /// The widget's background colour.
    public static var background: BackgroundStyle { BackgroundStyle() }
}

/// The tint colour (`.tint`): the accent colour unless `tint(_:)` sets one.
public struct TintShapeStyle: ShapeStyle, PaintSource {
    public func _resolvePaint(in environment: EnvironmentValues) -> _ResolvedPaint {
        _ResolvedPaint(paint: paint(in: environment))
    }

    public init() {}

    func paint(in environment: EnvironmentValues) -> ViewPaint {
        environment.tintPaint ?? SystemColor.blue.paint
    }
}

extension ShapeStyle where Self == TintShapeStyle {
    /// The view's tint colour.
    public static var tint: TintShapeStyle { TintShapeStyle() }
}

/// The style of the content (`.foreground`): the foreground style where it is drawn.
public struct ForegroundStyle: ShapeStyle, PaintSource {
    public func _resolvePaint(in environment: EnvironmentValues) -> _ResolvedPaint {
        _ResolvedPaint(paint: paint(in: environment))
    }

    public init() {}

    func paint(in environment: EnvironmentValues) -> ViewPaint {
        environment.foregroundStyle?.paint(in: environment) ?? SystemColor.label.paint
    }
}

extension ShapeStyle where Self == ForegroundStyle {
    /// The foreground style of the view.
    public static var foreground: ForegroundStyle { ForegroundStyle() }
}

/// A style whose type is erased.
public struct AnyShapeStyle: ShapeStyle, PaintSource {
    public func _resolvePaint(in environment: EnvironmentValues) -> _ResolvedPaint {
        _ResolvedPaint(paint: paint(in: environment))
    }

    let source: any ShapeStyle

    public init<S: ShapeStyle>(_ style: S) {
        source = style
    }

    func paint(in environment: EnvironmentValues) -> ViewPaint {
        source.resolvedPaint(in: environment)
    }
}

// MARK: the foreground and tint in the environment

/// A foreground style kept in the environment, with the one it replaced: a hierarchical level
/// (`.secondary`) is a level of the style above it.
final class StoredStyle: Sendable {
    let style: any ShapeStyle
    let outer: StoredStyle?

    init(style: any ShapeStyle, outer: StoredStyle?) {
        self.style = style
        self.outer = outer
    }

    func paint(in environment: EnvironmentValues) -> ViewPaint {
        var above = environment
        above.foregroundStyle = outer
        return style.resolvedPaint(in: above)
    }
}

private struct ForegroundStyleKey: EnvironmentKey { static let defaultValue: StoredStyle? = nil }
private struct TintKey: EnvironmentKey { static let defaultValue: ViewPaint? = nil }

extension EnvironmentValues {
    var foregroundStyle: StoredStyle? {
        get { self[ForegroundStyleKey.self] }
        set { self[ForegroundStyleKey.self] = newValue }
    }

    var tintPaint: ViewPaint? {
        get { self[TintKey.self] }
        set { self[TintKey.self] = newValue }
    }

    /// Sets `style` as the foreground, keeping the one it replaces for its levels.
    mutating func setForeground(_ style: any ShapeStyle) {
        foregroundStyle = StoredStyle(style: style, outer: foregroundStyle)
    }

    /// The paint of text and symbols here.
    var foregroundPaint: ViewPaint {
        foregroundStyle?.paint(in: self) ?? SystemColor.label.paint
    }
}

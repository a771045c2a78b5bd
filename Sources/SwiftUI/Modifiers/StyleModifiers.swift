import SandglassIPC

extension View {
    /// The environment value at `keyPath` set for the view and those inside it.
    public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> ModifiedContent<Self, _PrimitiveModifier> {
        modifyingEnvironment { $0[keyPath: keyPath] = value }
    }

    /// The font of text inside.
    public func font(_ font: Font?) -> ModifiedContent<Self, _PrimitiveModifier> {
        environment(\.font, font)
    }

    /// The weight of text inside.
    public func fontWeight(_ weight: Font.Weight?) -> ModifiedContent<Self, _PrimitiveModifier> {
        modifyingEnvironment { $0.textStyle.weight = weight }
    }

    /// The design of text inside.
    public func fontDesign(_ design: Font.Design?) -> ModifiedContent<Self, _PrimitiveModifier> {
        modifyingEnvironment { $0.textStyle.design = design }
    }

    /// Text inside in bold.
    public func bold(_ isActive: Bool = true) -> ModifiedContent<Self, _PrimitiveModifier> {
        modifyingEnvironment { if isActive { $0.textStyle.weight = .bold } }
    }

    /// Text inside in italics.
    public func italic(_ isActive: Bool = true) -> ModifiedContent<Self, _PrimitiveModifier> {
        modifyingEnvironment { if isActive { $0.textStyle.italic = true } }
    }

    /// Digits inside of one width.
    public func monospacedDigit() -> ModifiedContent<Self, _PrimitiveModifier> {
        modifyingEnvironment { $0.textStyle.monospacedDigit = true }
    }

    /// Text inside in the monospaced design.
    public func monospaced(_ isActive: Bool = true) -> ModifiedContent<Self, _PrimitiveModifier> {
        modifyingEnvironment { if isActive { $0.textStyle.design = .monospaced } }
    }

    /// The style of text, symbols and shapes inside.
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> ModifiedContent<Self, _PrimitiveModifier> {
        modifyingEnvironment { $0.setForeground(style) }
    }

    /// The styles of the first and second levels inside (the second drawn as the first's level).
    public func foregroundStyle<S1: ShapeStyle, S2: ShapeStyle>(_ primary: S1, _ secondary: S2) -> ModifiedContent<Self, _PrimitiveModifier>
    {
        foregroundStyle(primary)
    }

    /// The colour of text, symbols and shapes inside.
    public func foregroundColor(_ color: Color?) -> ModifiedContent<Self, _PrimitiveModifier> {
        modifyingEnvironment { environment in
            if let color { environment.setForeground(color) }
        }
    }

    /// The tint of controls, gauges and progress views inside.
    public func tint(_ tint: Color?) -> ModifiedContent<Self, _PrimitiveModifier> {
        modifyingEnvironment { environment in
            environment.tintPaint = tint.map { $0.paint(in: environment) }
        }
    }

    /// The tint of controls inside, as a style.
    public func tint<S: ShapeStyle>(_ tint: S?) -> ModifiedContent<Self, _PrimitiveModifier> {
        modifyingEnvironment { environment in
            environment.tintPaint = tint.map { $0.resolvedPaint(in: environment) }
        }
    }

    /// The most lines text inside takes.
    public func lineLimit(_ number: Int?) -> ModifiedContent<Self, _PrimitiveModifier> {
        environment(\.lineLimit, number)
    }

    /// The most lines text inside takes (the space it reserves is not kept).
    public func lineLimit(_ limit: Int, reservesSpace: Bool) -> ModifiedContent<Self, _PrimitiveModifier> {
        environment(\.lineLimit, limit)
    }

    /// The range of lines text inside takes (its upper bound is the limit).
    public func lineLimit(_ limit: ClosedRange<Int>) -> ModifiedContent<Self, _PrimitiveModifier> {
        environment(\.lineLimit, limit.upperBound)
    }

    /// The most lines text inside takes.
    public func lineLimit(_ limit: PartialRangeThrough<Int>) -> ModifiedContent<Self, _PrimitiveModifier> {
        environment(\.lineLimit, limit.upperBound)
    }

    /// How far text inside may shrink to fit before it is cut.
    public func minimumScaleFactor(_ factor: CGFloat) -> ModifiedContent<Self, _PrimitiveModifier> {
        environment(\.minimumScaleFactor, factor)
    }

    /// How the lines of text inside align.
    public func multilineTextAlignment(_ alignment: TextAlignment) -> ModifiedContent<Self, _PrimitiveModifier> {
        environment(\.multilineTextAlignment, alignment)
    }

    /// Where text inside is cut (drawn cut at its end).
    public func truncationMode(_ mode: Text.TruncationMode) -> ModifiedContent<Self, _PrimitiveModifier> {
        environment(\.truncationMode, mode)
    }

    /// Extra points between the lines of text inside.
    public func lineSpacing(_ lineSpacing: CGFloat) -> ModifiedContent<Self, _PrimitiveModifier> {
        environment(\.lineSpacing, lineSpacing)
    }

    /// Whether text inside may tighten before it is cut (measured without).
    public func allowsTightening(_ flag: Bool) -> Self { self }

    /// Text inside in upper or lower case.
    public func textCase(_ textCase: Text.Case?) -> ModifiedContent<Self, _PrimitiveModifier> {
        environment(\.textCase, textCase)
    }

    /// The size of symbols inside.
    public func imageScale(_ scale: Image.Scale) -> ModifiedContent<Self, _PrimitiveModifier> {
        environment(\.imageScale, scale)
    }

    /// How symbols inside are coloured (drawn in the foreground style).
    public func symbolRenderingMode(_ mode: SymbolRenderingMode?) -> Self { self }

    /// A variant of the symbols inside (drawn by name).
    public func symbolVariant(_ variant: SymbolVariants) -> Self { self }

    /// Whether controls inside are enabled.
    public func disabled(_ disabled: Bool) -> ModifiedContent<Self, _PrimitiveModifier> {
        environment(\.isEnabled, !disabled)
    }
}

/// How symbols are coloured.
public struct SymbolRenderingMode: Sendable, Hashable {
    let kind: Int
    public static let monochrome = SymbolRenderingMode(kind: 0)
    public static let multicolor = SymbolRenderingMode(kind: 1)
    public static let hierarchical = SymbolRenderingMode(kind: 2)
    public static let palette = SymbolRenderingMode(kind: 3)
}

/// Variants of symbols.
public struct SymbolVariants: Sendable, Hashable {
    let name: String
    public static let none = SymbolVariants(name: "")
    public static let fill = SymbolVariants(name: "fill")
    public static let circle = SymbolVariants(name: "circle")
    public static let square = SymbolVariants(name: "square")
    public static let slash = SymbolVariants(name: "slash")
}

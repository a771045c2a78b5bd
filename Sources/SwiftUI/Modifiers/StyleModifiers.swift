import SandglassIPC

extension View {
    /// The environment value at `keyPath` set for the view and those inside it.
    public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View {
        modifyingEnvironment { $0[keyPath: keyPath] = value }
    }

    /// The font of text inside.
    public func font(_ font: Font?) -> some View {
        environment(\.font, font)
    }

    /// The weight of text inside.
    public func fontWeight(_ weight: Font.Weight?) -> some View {
        modifyingEnvironment { $0.textStyle.weight = weight }
    }

    /// The design of text inside.
    public func fontDesign(_ design: Font.Design?) -> some View {
        modifyingEnvironment { $0.textStyle.design = design }
    }

    /// Text inside in bold.
    public func bold(_ isActive: Bool = true) -> some View {
        modifyingEnvironment { if isActive { $0.textStyle.weight = .bold } }
    }

    /// Text inside in italics.
    public func italic(_ isActive: Bool = true) -> some View {
        modifyingEnvironment { if isActive { $0.textStyle.italic = true } }
    }

    /// Digits inside of one width.
    public func monospacedDigit() -> some View {
        modifyingEnvironment { $0.textStyle.monospacedDigit = true }
    }

    /// Text inside in the monospaced design.
    public func monospaced(_ isActive: Bool = true) -> some View {
        modifyingEnvironment { if isActive { $0.textStyle.design = .monospaced } }
    }

    /// The style of text, symbols and shapes inside.
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View {
        modifyingEnvironment { $0.setForeground(style) }
    }

    /// The styles of the first and second levels inside (the second drawn as the first's level).
    public func foregroundStyle<S1: ShapeStyle, S2: ShapeStyle>(_ primary: S1, _ secondary: S2) -> some View {
        foregroundStyle(primary)
    }

    /// The colour of text, symbols and shapes inside.
    public func foregroundColor(_ color: Color?) -> some View {
        modifyingEnvironment { environment in
            if let color { environment.setForeground(color) }
        }
    }

    /// The tint of controls, gauges and progress views inside.
    public func tint(_ tint: Color?) -> some View {
        modifyingEnvironment { environment in
            environment.tintPaint = tint.map { $0.paint(in: environment) }
        }
    }

    /// The tint of controls inside, as a style.
    public func tint<S: ShapeStyle>(_ tint: S?) -> some View {
        modifyingEnvironment { environment in
            environment.tintPaint = tint.map { $0.resolvedPaint(in: environment) }
        }
    }

    /// The most lines text inside takes.
    public func lineLimit(_ number: Int?) -> some View {
        environment(\.lineLimit, number)
    }

    /// The most lines text inside takes (the space it reserves is not kept).
    public func lineLimit(_ limit: Int, reservesSpace: Bool) -> some View {
        environment(\.lineLimit, limit)
    }

    /// The range of lines text inside takes (its upper bound is the limit).
    public func lineLimit(_ limit: ClosedRange<Int>) -> some View {
        environment(\.lineLimit, limit.upperBound)
    }

    /// The most lines text inside takes.
    public func lineLimit(_ limit: PartialRangeThrough<Int>) -> some View {
        environment(\.lineLimit, limit.upperBound)
    }

    /// How far text inside may shrink to fit before it is cut.
    public func minimumScaleFactor(_ factor: CGFloat) -> some View {
        environment(\.minimumScaleFactor, factor)
    }

    /// How the lines of text inside align.
    public func multilineTextAlignment(_ alignment: TextAlignment) -> some View {
        environment(\.multilineTextAlignment, alignment)
    }

    /// Where text inside is cut (drawn cut at its end).
    public func truncationMode(_ mode: Text.TruncationMode) -> some View {
        environment(\.truncationMode, mode)
    }

    /// Extra points between the lines of text inside.
    public func lineSpacing(_ lineSpacing: CGFloat) -> some View {
        environment(\.lineSpacing, lineSpacing)
    }

    /// Whether text inside may tighten before it is cut (measured without).
    public func allowsTightening(_ flag: Bool) -> some View { self }

    /// Text inside in upper or lower case.
    public func textCase(_ textCase: Text.Case?) -> some View {
        environment(\.textCase, textCase)
    }

    /// The size of symbols inside.
    public func imageScale(_ scale: Image.Scale) -> some View {
        environment(\.imageScale, scale)
    }

    /// How symbols inside are coloured (drawn in the foreground style).
    public func symbolRenderingMode(_ mode: SymbolRenderingMode?) -> some View { self }

    /// A variant of the symbols inside (drawn by name).
    public func symbolVariant(_ variant: SymbolVariants) -> some View { self }

    /// Whether controls inside are enabled.
    public func disabled(_ disabled: Bool) -> some View {
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

import SandglassIPC

extension View {
    /// Views behind this one, offered its size.
    public func background<V: View>(
        alignment: Alignment = .center, @ViewBuilder content: () -> V
    ) -> ModifiedContent<Self, _PrimitiveModifier> {
        let background = content()
        return wrappingNodes { node, context in
            LayeredNode(primary: node, secondary: resolveNode(background, context), alignment: alignment, isOverlay: false)
        }
    }

    /// A style filling the space behind this view.
    public func background<S: ShapeStyle>(
        _ style: S, ignoresSafeAreaEdges edges: Edge.Set = .all
    ) -> ModifiedContent<Self, _PrimitiveModifier> {
        background(style, in: Rectangle())
    }

    /// A shape filled with a style behind this view.
    public func background<S: ShapeStyle, T: Shape>(
        _ style: S, in shape: T, fillStyle: FillStyle = FillStyle()
    ) -> ModifiedContent<Self, _PrimitiveModifier> {
        background { shape.fill(style) }
    }

    /// A view behind this one (the form before iOS 15).
    @_disfavoredOverload
    public func background<Background: View>(
        _ background: Background, alignment: Alignment = .center
    ) -> ModifiedContent<Self, _PrimitiveModifier> {
        self.background(alignment: alignment) { background }
    }

    /// Views over this one, offered its size.
    public func overlay<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> ModifiedContent<Self, _PrimitiveModifier>
    {
        let overlay = content()
        return wrappingNodes { node, context in
            LayeredNode(primary: node, secondary: resolveNode(overlay, context), alignment: alignment, isOverlay: true)
        }
    }

    /// A style over this view.
    public func overlay<S: ShapeStyle>(_ style: S, ignoresSafeAreaEdges edges: Edge.Set = .all) -> ModifiedContent<Self, _PrimitiveModifier>
    {
        overlay(style, in: Rectangle())
    }

    /// A shape filled with a style over this view.
    public func overlay<S: ShapeStyle, T: Shape>(
        _ style: S, in shape: T, fillStyle: FillStyle = FillStyle()
    ) -> ModifiedContent<Self, _PrimitiveModifier> {
        overlay { shape.fill(style) }
    }

    /// A view over this one (the form before iOS 15).
    @_disfavoredOverload
    public func overlay<Overlay: View>(_ overlay: Overlay, alignment: Alignment = .center) -> ModifiedContent<Self, _PrimitiveModifier> {
        self.overlay(alignment: alignment) { overlay }
    }

    /// A border drawn inside the view's frame.
    public func border<S: ShapeStyle>(_ content: S, width: CGFloat = 1) -> ModifiedContent<Self, _PrimitiveModifier> {
        overlay { Rectangle().strokeBorder(content, lineWidth: width) }
    }

    /// The view clipped to a rounded rectangle.
    public func cornerRadius(_ radius: CGFloat, antialiased: Bool = true) -> ModifiedContent<Self, _PrimitiveModifier> {
        grouped { $0.clip = .builtIn(.roundedRectangle(radius: Float(radius))) }
    }

    /// The view clipped to a shape.
    public func clipShape<S: Shape>(_ shape: S, style: FillStyle = FillStyle()) -> ModifiedContent<Self, _PrimitiveModifier> {
        let outline = shape.outline
        return grouped { $0.clip = outline }
    }

    /// The view clipped to its frame.
    public func clipped(antialiased: Bool = false) -> ModifiedContent<Self, _PrimitiveModifier> {
        grouped { $0.clip = .builtIn(.rectangle) }
    }

    /// The view more transparent.
    public func opacity(_ opacity: Double) -> ModifiedContent<Self, _PrimitiveModifier> {
        grouped { $0.opacity = CGFloat(min(max(opacity, 0), 1)) }
    }

    /// The view turned about its centre.
    public func rotationEffect(_ angle: Angle, anchor: UnitPoint = .center) -> ModifiedContent<Self, _PrimitiveModifier> {
        grouped { $0.rotation = angle }
    }

    /// A shadow under the view.
    public func shadow(
        color: Color = Color(.sRGBLinear, white: 0, opacity: 0.33), radius: CGFloat, x: CGFloat = 0, y: CGFloat = 0
    ) -> ModifiedContent<Self, _PrimitiveModifier> {
        wrappingNodes { node, context in
            var attributes = GroupAttributes()
            let pair: ColorPair = if case .color(let c) = color.paint(in: context.environment) { c } else { SystemColor.black }
            attributes.shadow = ViewShadow(color: pair, radius: Float(radius), x: Float(x), y: Float(y))
            return GroupNode(attributes, child: node)
        }
    }

    /// What accessibility reads for the view (recorded with the view).
    public func accessibilityLabel(_ label: Text) -> ModifiedContent<Self, _PrimitiveModifier> {
        let words = label.plainText
        return grouped { $0.label = words }
    }

    /// What accessibility reads for the view.
    public func accessibilityLabel(_ labelKey: LocalizedStringKey) -> ModifiedContent<Self, _PrimitiveModifier> {
        accessibilityLabel(Text(labelKey))
    }

    /// What accessibility reads for the view.
    @_disfavoredOverload
    public func accessibilityLabel<S: StringProtocol>(_ label: S) -> ModifiedContent<Self, _PrimitiveModifier> {
        accessibilityLabel(Text(label))
    }

    /// An accessibility hint (not drawn).
    public func accessibilityHint(_ hint: Text) -> Self { self }
    /// An accessibility hint (not drawn).
    public func accessibilityHint(_ hintKey: LocalizedStringKey) -> Self { self }
    /// An accessibility value (not drawn).
    public func accessibilityValue(_ value: Text) -> Self { self }
    /// An accessibility value (not drawn).
    public func accessibilityValue(_ valueKey: LocalizedStringKey) -> Self { self }
    /// Whether accessibility skips the view (not drawn).
    public func accessibilityHidden(_ hidden: Bool) -> Self { self }
    /// How accessibility groups the view's children (not drawn).
    public func accessibilityElement(children: AccessibilityChildBehavior = .ignore) -> Self { self }
    /// Accessibility traits (not drawn).
    public func accessibilityAddTraits(_ traits: AccessibilityTraits) -> Self { self }
}

extension Text {
    /// The text's characters, without styles, resolved now.
    var plainText: String {
        segments.map { segment in
            switch segment.content {
            case .verbatim(let string): string
            case .symbol(let name): name
            case .date(let date, _): "\(date)"
            case .timer(let range, _, _, _): "\(range)"
            }
        }.joined()
    }
}

/// How accessibility groups a view's children.
public struct AccessibilityChildBehavior: Sendable, Hashable {
    let kind: Int
    public static let ignore = AccessibilityChildBehavior(kind: 0)
    public static let contain = AccessibilityChildBehavior(kind: 1)
    public static let combine = AccessibilityChildBehavior(kind: 2)
}

/// Accessibility traits.
public struct AccessibilityTraits: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let isButton = AccessibilityTraits(rawValue: 1 << 0)
    public static let isHeader = AccessibilityTraits(rawValue: 1 << 1)
    public static let isImage = AccessibilityTraits(rawValue: 1 << 2)
    public static let isStaticText = AccessibilityTraits(rawValue: 1 << 3)
    public static let isLink = AccessibilityTraits(rawValue: 1 << 4)
    public static let updatesFrequently = AccessibilityTraits(rawValue: 1 << 5)
}

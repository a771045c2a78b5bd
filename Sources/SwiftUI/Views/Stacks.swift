/// Views side by side, from leading to trailing.
///
/// ```swift
/// HStack(alignment: .firstTextBaseline, spacing: 4) {
///     Text("42").font(.largeTitle)
///     Text("points")
/// }
/// ```
nonisolated public struct HStack<Content: View>: View {
    let alignment: VerticalAlignment
    let spacing: CGFloat?
    let content: Content

    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }

    public var body: Never { primitiveBody(Self.self) }
}

extension HStack: PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] {
        [
            StackNode(
                axis: .horizontal, alignment: alignment.fraction, verticalAlignment: alignment, spacing: spacing,
                children: resolveNodes(content, context))
        ]
    }
}

/// Views one above the other, from top to bottom.
nonisolated public struct VStack<Content: View>: View {
    let alignment: HorizontalAlignment
    let spacing: CGFloat?
    let content: Content

    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }

    public var body: Never { primitiveBody(Self.self) }
}

extension VStack: PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] {
        [
            StackNode(
                axis: .vertical, alignment: alignment.fraction, verticalAlignment: .center, spacing: spacing,
                children: resolveNodes(content, context))
        ]
    }
}

/// Views over one another, aligned, the first at the back.
nonisolated public struct ZStack<Content: View>: View {
    let alignment: Alignment
    let content: Content

    public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.content = content()
    }

    public var body: Never { primitiveBody(Self.self) }
}

extension ZStack: PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] {
        [ZStackNode(alignment: alignment, children: resolveNodes(content, context))]
    }
}

/// A vertical stack (in a widget nothing is lazy: every view is evaluated).
nonisolated public struct LazyVStack<Content: View>: View {
    let stack: VStack<Content>

    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        stack = VStack(alignment: alignment, spacing: spacing, content: content)
    }

    public var body: Never { primitiveBody(Self.self) }
}

extension LazyVStack: PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] { stack.makeNodes(context) }
}

/// A horizontal stack (in a widget nothing is lazy: every view is evaluated).
nonisolated public struct LazyHStack<Content: View>: View {
    let stack: HStack<Content>

    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        stack = HStack(alignment: alignment, spacing: spacing, content: content)
    }

    public var body: Never { primitiveBody(Self.self) }
}

extension LazyHStack: PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] { stack.makeNodes(context) }
}

/// Room that grows along its stack's axis.
nonisolated public struct Spacer: View {
    /// The least room it takes (the system spacing, 8 points, when `nil`).
    public var minLength: CGFloat?

    public init(minLength: CGFloat? = nil) {
        self.minLength = minLength
    }

    public var body: Never { primitiveBody(Self.self) }
}

extension Spacer: PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] { [SpacerNode(minLength: minLength)] }
}

/// A hairline across its stack's axis.
nonisolated public struct Divider: View {
    public init() {}
    public var body: Never { primitiveBody(Self.self) }
}

extension Divider: PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] { [DividerNode(paint: SystemColor.separator.paint)] }
}

/// The views of the first child that fits the space offered, on the axes given.
///
/// ```swift
/// ViewThatFits(in: .horizontal) {
///     Text("Next match in \(minutes) minutes")
///     Text("\(minutes) min")
/// }
/// ```
nonisolated public struct ViewThatFits<Content: View>: View {
    let axes: Axis.Set
    let content: Content

    public init(in axes: Axis.Set = [.horizontal, .vertical], @ViewBuilder content: () -> Content) {
        self.axes = axes
        self.content = content()
    }

    public var body: Never { primitiveBody(Self.self) }
}

extension ViewThatFits: PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] {
        [FitsNode(axes: axes, children: resolveNodes(content, context))]
    }
}

/// A view made for the size it is given: takes all the space offered; its content is placed
/// from the top leading corner.
nonisolated public struct GeometryReader<Content: View>: View {
    let content: (GeometryProxy) -> Content

    public init(@ViewBuilder content: @escaping (GeometryProxy) -> Content) {
        self.content = content
    }

    public var body: Never { primitiveBody(Self.self) }
}

extension GeometryReader: PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] {
        let content = self.content
        return [
            GeometryNode { proxy in
                ZStackNode(alignment: .topLeading, children: resolveNodes(content(proxy), context))
            }
        ]
    }
}

/// The size and place of a `GeometryReader`.
public struct GeometryProxy {
    /// The reader's size.
    public let size: CGSize
    let frame: CGRect

    /// The safe-area insets (none in a widget).
    public var safeAreaInsets: EdgeInsets { EdgeInsets() }

    /// The reader's frame: in its own coordinates (`.local`) or the widget's.
    public func frame(in coordinateSpace: CoordinateSpace) -> CGRect {
        switch coordinateSpace {
        case .local: CGRect(origin: .zero, size: size)
        case .global, .named: frame
        }
    }
}

/// Where a frame is measured from.
public enum CoordinateSpace: Hashable {
    case global
    case local
    case named(AnyHashable)
}

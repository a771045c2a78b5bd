/// A modifier of views written as a view: `body(content:)` makes the modified view.
///
/// ```swift
/// struct Card: ViewModifier {
///     func body(content: Content) -> some View {
///         content.padding().background(.fill.tertiary, in: RoundedRectangle(cornerRadius: 12))
///     }
/// }
///
/// Text("Hello").modifier(Card())
/// ```
@MainActor @preconcurrency
public protocol ViewModifier {
    /// The type of the modified view.
    associatedtype Body: View

    /// The view being modified, inside `body(content:)`.
    typealias Content = _ViewModifier_Content<Self>

    /// The modified view.
    @ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body
}

/// The view a `ViewModifier` modifies.
nonisolated public struct _ViewModifier_Content<Modifier: ViewModifier>: View {
    let nodes: [LayoutNode]

    public var body: Never { primitiveBody(Self.self) }
}

extension _ViewModifier_Content: PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] { nodes }
}

/// A view with a modifier applied.
nonisolated public struct ModifiedContent<Content, Modifier> {
    public var content: Content
    public var modifier: Modifier

    public init(content: Content, modifier: Modifier) {
        self.content = content
        self.modifier = modifier
    }
}

extension ModifiedContent: View where Content: View, Modifier: ViewModifier {
    public var body: Never { fatalError("ModifiedContent is a primitive view and has no body") }
}

extension ModifiedContent: PrimitiveView where Content: View, Modifier: ViewModifier {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] {
        if let primitive = modifier as? _PrimitiveModifier {
            var inner = context
            primitive.modifyEnvironment(&inner.environment)
            return resolveNodes(content, inner).map { node in
                let wrapped = primitive.wrap(node, inner)
                if wrapped !== node { wrapped.priority = max(wrapped.priority, node.priority) }
                return wrapped
            }
        }
        let content = _ViewModifier_Content<Modifier>(nodes: resolveNodes(self.content, context))
        let body = EnvironmentValues.evaluating(context.environment) { modifier.body(content: content) }
        return resolveNodes(body, context)
    }
}

extension View {
    /// This view with `modifier` applied.
    public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> {
        ModifiedContent(content: self, modifier: modifier)
    }
}

/// A modifier this module applies itself: it changes the environment of the content, then
/// wraps each node the content resolved to.
@MainActor
protocol PrimitiveModifier {
    func modifyEnvironment(_ environment: inout EnvironmentValues)
    func wrap(_ node: LayoutNode, _ context: ResolveContext) -> LayoutNode
}

extension PrimitiveModifier {
    func modifyEnvironment(_ environment: inout EnvironmentValues) {}
    func wrap(_ node: LayoutNode, _ context: ResolveContext) -> LayoutNode { node }
}

/// A modifier defined by two closures; the SDK's modifiers are made of it.
public struct _PrimitiveModifier: ViewModifier, PrimitiveModifier {
    let environment: (@MainActor (inout EnvironmentValues) -> Void)?
    let wrapper: (@MainActor (LayoutNode, ResolveContext) -> LayoutNode)?

    init(
        environment: (@MainActor (inout EnvironmentValues) -> Void)? = nil,
        wrap: (@MainActor (LayoutNode, ResolveContext) -> LayoutNode)? = nil
    ) {
        self.environment = environment
        self.wrapper = wrap
    }

    public func body(content: Content) -> Never { fatalError("_PrimitiveModifier has no body") }

    @MainActor func modifyEnvironment(_ environment: inout EnvironmentValues) {
        self.environment?(&environment)
    }

    @MainActor func wrap(_ node: LayoutNode, _ context: ResolveContext) -> LayoutNode {
        wrapper?(node, context) ?? node
    }
}

extension View {
    /// This view in an environment changed by `change`.
    func modifyingEnvironment(_ change: @escaping @MainActor (inout EnvironmentValues) -> Void) -> ModifiedContent<Self, _PrimitiveModifier>
    {
        modifier(_PrimitiveModifier(environment: change))
    }

    /// This view with each of its nodes wrapped by `wrap`.
    func wrappingNodes(_ wrap: @escaping @MainActor (LayoutNode, ResolveContext) -> LayoutNode) -> ModifiedContent<Self, _PrimitiveModifier>
    {
        modifier(_PrimitiveModifier(wrap: wrap))
    }

    /// This view drawn inside a group with `attributes` changed by `change`.
    func grouped(_ change: @escaping @MainActor (inout GroupAttributes) -> Void) -> ModifiedContent<Self, _PrimitiveModifier> {
        wrappingNodes { node, _ in
            var attributes = GroupAttributes()
            change(&attributes)
            return GroupNode(attributes, child: node)
        }
    }
}

/// Several views listed in a view builder; a stack lays them out one after the other.
nonisolated public struct TupleView<T>: View {
    /// The views.
    public var value: T
    let makeChildren: @MainActor (ResolveContext) -> [LayoutNode]

    nonisolated init(value: T, makeChildren: @escaping @MainActor (ResolveContext) -> [LayoutNode]) {
        self.value = value
        self.makeChildren = makeChildren
    }

    /// A list of the views of a tuple.
    public nonisolated init(_ value: T) {
        self.value = value
        let children = UncheckedSendable(Mirror(reflecting: value).children.map(\.value))
        makeChildren = { context in
            children.value.flatMap { child -> [LayoutNode] in
                guard let view = child as? any View else { return [] }
                return resolveNodes(view, context)
            }
        }
    }

    public var body: Never { primitiveBody(Self.self) }
}

extension TupleView: PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] {
        makeChildren(context)
    }
}

/// One of two views, chosen by an `if`/`else` or a `switch` in a view builder.
nonisolated public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View {
    enum Storage {
        case trueContent(TrueContent)
        case falseContent(FalseContent)
    }

    let storage: Storage

    nonisolated init(storage: Storage) {
        self.storage = storage
    }

    public var body: Never { primitiveBody(Self.self) }
}

extension _ConditionalContent: PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] {
        switch storage {
        case .trueContent(let view): resolveNodes(view, context)
        case .falseContent(let view): resolveNodes(view, context)
        }
    }
}

extension Optional: View where Wrapped: View {
    public var body: Never { fatalError("Optional is a primitive view and has no body") }
}

extension Optional: PrimitiveView where Wrapped: View {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] {
        map { resolveNodes($0, context) } ?? []
    }
}

/// No view at all; takes no room in a stack.
nonisolated public struct EmptyView: View {
    public nonisolated init() {}
    public var body: Never { primitiveBody(Self.self) }
}

extension EmptyView: PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] { [] }
}

/// A view whose type is erased.
nonisolated public struct AnyView: View {
    let view: any View

    /// Erases the type of `view`.
    public nonisolated init<V: View>(_ view: V) {
        self.view = view
    }

    /// Erases the type of `view`, or `nil` when it is not a view.
    public nonisolated init?(_fromValue value: Any) {
        guard let view = value as? any View else { return nil }
        self.view = view
    }

    /// Erases the type of `view`.
    public nonisolated init<V: View>(erasing view: V) {
        self.view = view
    }

    public var body: Never { primitiveBody(Self.self) }
}

extension AnyView: PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] {
        resolveNodes(view, context)
    }
}

/// Views that form one group: modifiers apply to each; a stack lays them out one by one.
///
/// ```swift
/// Group {
///     Text("Round \(entry.round)")
///     Text(entry.leader)
/// }
/// .font(.caption)
/// ```
nonisolated public struct Group<Content> {
    let content: Content
}

extension Group: View where Content: View {
    /// Groups the views of `content`.
    public init(@ViewBuilder content: () -> Content) {
        self.content = content()
    }

    public var body: Never { primitiveBody(Self.self) }
}

extension Group: PrimitiveView where Content: View {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] {
        resolveNodes(content, context)
    }
}

/// A value handed to the main actor's rendering once, by the view that made it; views are
/// built and evaluated on the main actor, as in SwiftUI.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

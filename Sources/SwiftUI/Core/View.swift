/// A part of a widget's user interface: a primitive view of this module, or a type whose
/// `body` is made of other views.
///
/// ```swift
/// struct ScoreView: View {
///     var entry: ScoreEntry
///
///     var body: some View {
///         VStack(alignment: .leading) {
///             Text(entry.team).font(.headline)
///             Text("\(entry.points) points").foregroundStyle(.secondary)
///         }
///     }
/// }
/// ```
@MainActor @preconcurrency
public protocol View {
    /// The type of the view's body.
    associatedtype Body: View

    /// The content of the view; the SDK evaluates it for every entry.
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }

    /// The layout nodes `view` stands for: its body's, or a primitive view's own. Dispatched
    /// through the protocol, so evaluating a view asks the runtime no conformance question.
    @MainActor static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs
}

extension View {
    /// A view made of other views: its body, evaluated in the environment of `inputs`.
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        let body = EnvironmentValues.evaluating(inputs.context.environment) { view.body }
        return Body._makeNodes(body, inputs)
    }
}

/// Where a view is evaluated (the SDK's own, opaque).
public struct _ViewInputs {
    let context: ResolveContext
}

/// What a view was evaluated to (the SDK's own, opaque).
public struct _ViewOutputs {
    let nodes: [LayoutNode]

    init(_ nodes: [LayoutNode]) {
        self.nodes = nodes
    }
}

extension Never: View {
    @MainActor public static func _makeNodes(_ view: Never, _ inputs: _ViewInputs) -> _ViewOutputs {}
}

extension Never {
    /// `Never` has no body: the body of every primitive view.
    public var body: Never {
        fatalError("Never has no body")
    }
}

/// A view this module resolves itself, without a `body`.
@MainActor
protocol PrimitiveView {
    /// The layout nodes the view stands for (several for a group, a `ForEach` or a list of
    /// views), in the environment of `context`.
    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode]
}

/// The body of a primitive view, which has none.
nonisolated func primitiveBody(_ type: Any.Type) -> Never {
    fatalError("\(type) is a primitive view and has no body")
}

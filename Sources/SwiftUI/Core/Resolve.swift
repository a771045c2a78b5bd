import SandglassIPC

/// Where a view is evaluated: its environment, and the render it is part of.
struct ResolveContext {
    var environment: EnvironmentValues
    let session: RenderSession
}

/// The layout nodes `view` stands for: a primitive view's own, or those of its `body`,
/// evaluated with the environment of `context` (what `@Environment` reads meanwhile).
@MainActor
func resolveNodes<V: View>(_ view: V, _ context: ResolveContext) -> [LayoutNode] {
    V._makeNodes(view, _ViewInputs(context: context)).nodes
}

/// The one node `view` stands for: several views become a vertical stack, as at the top of a
/// widget; none, an empty node.
@MainActor
func resolveNode<V: View>(_ view: V, _ context: ResolveContext) -> LayoutNode {
    LayoutNode.single(resolveNodes(view, context))
}

/// Builds a view from the statements of a closure or a `body`: lists of views, `if`, `if`/`else`,
/// `switch` and `if #available`.
@resultBuilder
public enum ViewBuilder {
    /// An expression of a view builder.
    public static func buildExpression<Content: View>(_ content: Content) -> Content {
        content
    }

    /// An empty block.
    public static func buildBlock() -> EmptyView {
        EmptyView()
    }

    /// A block of one view.
    public static func buildBlock<Content: View>(_ content: Content) -> Content {
        content
    }

    /// A block of several views.
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        let views = UncheckedSendable((repeat each content))
        return TupleView(value: views.value) { context in
            var nodes: [LayoutNode] = []
            for view in repeat each views.value {
                nodes += resolveNodes(view, context)
            }
            return nodes
        }
    }

    /// An `if` without `else`.
    public static func buildIf<Content: View>(_ content: Content?) -> Content? {
        content
    }

    /// The first branch of an `if`/`else` or a `switch`.
    public static func buildEither<TrueContent: View, FalseContent: View>(
        first: TrueContent
    ) -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent(storage: .trueContent(first))
    }

    /// The second branch of an `if`/`else` or a `switch`.
    public static func buildEither<TrueContent: View, FalseContent: View>(
        second: FalseContent
    ) -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent(storage: .falseContent(second))
    }

    /// A branch under `if #available`.
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView {
        AnyView(content)
    }
}

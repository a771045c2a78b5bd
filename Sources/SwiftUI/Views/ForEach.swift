/// A view for each element of a collection.
///
/// ```swift
/// ForEach(entry.players, id: \.name) { player in
///     Text(player.name)
/// }
/// ```
nonisolated public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {
    public var data: Data
    public var content: (Data.Element) -> Content
    let id: KeyPath<Data.Element, ID>?
}

extension ForEach: View where Content: View {
    /// A view for each element, identified by `id`.
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
        self.id = id
    }

    public var body: Never { primitiveBody(Self.self) }
}

extension ForEach where Content: View, Data.Element: Identifiable, ID == Data.Element.ID {
    /// A view for each element of identifiable data.
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
        self.id = \Data.Element.id
    }
}

extension ForEach where Content: View, Data == Range<Int>, ID == Int {
    /// A view for each integer of a constant range.
    public init(_ data: Range<Int>, @ViewBuilder content: @escaping (Int) -> Content) {
        self.data = data
        self.content = content
        self.id = nil
    }
}

extension ForEach: PrimitiveView where Content: View {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] {
        data.flatMap { resolveNodes(content($0), context) }
    }
}

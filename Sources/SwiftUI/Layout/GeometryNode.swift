/// `GeometryReader`: takes the space proposed; its content, made for that size, is laid out
/// from the top leading corner.
final class GeometryNode: LayoutNode {
    let content: @MainActor (GeometryProxy) -> LayoutNode

    init(content: @escaping @MainActor (GeometryProxy) -> LayoutNode) {
        self.content = content
    }

    override func measure(_ proposal: ProposedSize) -> CGSize {
        proposal.replacingUnspecified(with: CGSize(width: 10, height: 10))
    }

    override func place(in frame: CGRect, _ emitter: inout NodeEmitter) {
        let content = content
        let child = LayoutNode.callingViewCode { content(GeometryProxy(size: frame.size, frame: frame)) }
        let size = child.size(for: ProposedSize(frame.size))
        child.place(in: CGRect(origin: frame.origin, size: size), &emitter)
    }
}

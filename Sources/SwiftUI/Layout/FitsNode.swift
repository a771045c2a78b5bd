/// `ViewThatFits`: the first child whose ideal size fits the space proposed on the axes
/// given, else the last.
final class FitsNode: LayoutNode {
    let axes: Axis.Set
    let children: [LayoutNode]

    init(axes: Axis.Set, children: [LayoutNode]) {
        self.axes = axes
        self.children = children
    }

    private func choice(_ proposal: ProposedSize) -> LayoutNode? {
        for child in children {
            let ideal = child.size(
                for: ProposedSize(
                    width: axes.contains(.horizontal) ? nil : proposal.width,
                    height: axes.contains(.vertical) ? nil : proposal.height))
            let fitsWidth = !axes.contains(.horizontal) || ideal.width <= (proposal.width ?? .infinity) + 0.01
            let fitsHeight = !axes.contains(.vertical) || ideal.height <= (proposal.height ?? .infinity) + 0.01
            if fitsWidth && fitsHeight { return child }
        }
        return children.last
    }

    override func measure(_ proposal: ProposedSize) -> CGSize {
        choice(proposal)?.size(for: proposal) ?? .zero
    }

    override func place(in frame: CGRect, _ emitter: inout NodeEmitter) {
        guard let child = choice(ProposedSize(frame.size)) else { return }
        let size = child.size(for: ProposedSize(frame.size))
        child.place(in: CGRect(origin: Alignment.center.origin(of: size, in: frame), size: size), &emitter)
    }
}

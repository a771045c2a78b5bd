/// `HStack` and `VStack`: children one after the other, SwiftUI's way — the least flexible
/// child (by layout priority, then flexibility) is offered its share of the room left first.
final class StackNode: LayoutNode {
    let axis: Axis
    /// Across the axis: 0 leading or top, 1 trailing or bottom.
    let alignment: CGFloat
    /// For a horizontal stack aligned on text baselines.
    let verticalAlignment: VerticalAlignment
    let spacing: CGFloat?
    let children: [LayoutNode]

    init(axis: Axis, alignment: CGFloat, verticalAlignment: VerticalAlignment, spacing: CGFloat?, children: [LayoutNode]) {
        self.axis = axis
        self.alignment = alignment
        self.verticalAlignment = verticalAlignment
        self.spacing = spacing
        self.children = children.filter { !$0.isEmpty }
        super.init()
        for child in self.children { child.stackAxis = axis }
    }

    /// The spacing between each child and the next.
    private lazy var gaps: [CGFloat] = {
        guard children.count > 1 else { return [] }
        return (1..<children.count).map { i in
            if let spacing { return spacing }
            return children[i - 1] is SpacerNode || children[i] is SpacerNode ? 0 : 8
        }
    }()

    /// The children's sizes by proposal: a few per stack, searched in order (hashing a proposal
    /// cost more than comparing them all).
    private var sizeCache: [(ProposedSize, [CGSize])] = []

    /// Each child's size for `proposal` (remembered).
    private func sizes(for proposal: ProposedSize) -> [CGSize] {
        if let known = sizeCache.first(where: { $0.0 == proposal }) { return known.1 }
        let result = computeSizes(for: proposal)
        sizeCache.append((proposal, result))
        return result
    }

    private func computeSizes(for proposal: ProposedSize) -> [CGSize] {
        let across = proposal[axis.other]
        func propose(_ along: CGFloat?) -> ProposedSize {
            var p = ProposedSize.unspecified
            p[axis] = along
            p[axis.other] = across
            return p
        }
        guard let available = proposal[axis] else {
            return children.map { $0.size(for: propose(nil)) }
        }
        var remaining = available - gaps.reduce(0, +)
        var result = [CGSize](repeating: .zero, count: children.count)
        let minimums = children.map { $0.size(for: propose(0))[axis] }
        let flexibilities = children.indices.map { i in children[i].size(for: propose(.infinity))[axis] - minimums[i] }
        let priorities = Set(children.map(\.priority)).sorted(by: >)
        for priority in priorities {
            let group = children.indices.filter { children[$0].priority == priority }.sorted { flexibilities[$0] < flexibilities[$1] }
            // Lower priorities keep at least their minimum.
            let reserved = children.indices.filter { children[$0].priority < priority }.reduce(0) { $0 + minimums[$1] }
            var left = remaining - reserved
            for (k, i) in group.enumerated() {
                let share = max(0, left / CGFloat(group.count - k))
                let size = children[i].size(for: propose(share))
                result[i] = size
                left -= size[axis]
            }
            remaining -= group.reduce(0) { $0 + result[$1][axis] }
        }
        return result
    }

    override func measure(_ proposal: ProposedSize) -> CGSize {
        guard !children.isEmpty else { return .zero }
        let sizes = sizes(for: proposal)
        let along = sizes.reduce(0) { $0 + $1[axis] } + gaps.reduce(0, +)
        var across = sizes.map { $0[axis.other] }.max() ?? 0
        if axis == .horizontal, case .firstTextBaseline = verticalAlignment.kind {
            across = baselineOffsets(sizes).height
        }
        return CGSize(axis, along: along, across: across)
    }

    /// For a horizontal stack on baselines: each child's top, and the stack's height.
    private func baselineOffsets(_ sizes: [CGSize]) -> (tops: [CGFloat], height: CGFloat) {
        let baselines = children.indices.map { children[$0].firstBaseline(at: sizes[$0]) }
        let top = baselines.max() ?? 0
        let tops = baselines.map { top - $0 }
        let height = children.indices.map { tops[$0] + sizes[$0].height }.max() ?? 0
        return (tops, height)
    }

    override func firstBaseline(at size: CGSize) -> CGFloat {
        guard let first = children.first else { return size.height }
        let sizes = sizes(for: ProposedSize(size))
        if axis == .vertical { return first.firstBaseline(at: sizes[0]) }
        return children.indices.map { offset(across: $0, sizes, in: size) + children[$0].firstBaseline(at: sizes[$0]) }.min() ?? size.height
    }

    private func offset(across i: Int, _ sizes: [CGSize], in size: CGSize) -> CGFloat {
        if axis == .horizontal, case .firstTextBaseline = verticalAlignment.kind {
            return baselineOffsets(sizes).tops[i]
        }
        return (size[axis.other] - sizes[i][axis.other]) * alignment
    }

    override func place(in frame: CGRect, _ emitter: inout NodeEmitter) {
        let sizes = sizes(for: ProposedSize(frame.size))
        var position: CGFloat = 0
        for (i, child) in children.enumerated() {
            let across = offset(across: i, sizes, in: frame.size)
            let origin =
                axis == .horizontal
                ? CGPoint(x: frame.minX + position, y: frame.minY + across)
                : CGPoint(x: frame.minX + across, y: frame.minY + position)
            child.place(in: CGRect(origin: origin, size: sizes[i]), &emitter)
            position += sizes[i][axis] + (i < gaps.count ? gaps[i] : 0)
        }
    }
}

/// `ZStack`: every child offered the same space, aligned over one another; as big as the
/// biggest.
final class ZStackNode: LayoutNode {
    let alignment: Alignment
    let children: [LayoutNode]

    init(alignment: Alignment, children: [LayoutNode]) {
        self.alignment = alignment
        self.children = children.filter { !$0.isEmpty }
    }

    override func measure(_ proposal: ProposedSize) -> CGSize {
        let sizes = children.map { $0.size(for: proposal) }
        return CGSize(width: sizes.map(\.width).max() ?? 0, height: sizes.map(\.height).max() ?? 0)
    }

    override func firstBaseline(at size: CGSize) -> CGFloat {
        children.first.map { child in
            let s = child.size(for: ProposedSize(size))
            return alignment.origin(of: s, in: CGRect(origin: .zero, size: size)).y + child.firstBaseline(at: s)
        } ?? size.height
    }

    override func place(in frame: CGRect, _ emitter: inout NodeEmitter) {
        for child in children {
            let size = child.size(for: ProposedSize(frame.size))
            child.place(in: CGRect(origin: alignment.origin(of: size, in: frame), size: size), &emitter)
        }
    }
}

import SandglassIPC

/// `padding`: the child offered the space less the insets; the insets added back.
final class PaddingNode: LayoutNode {
    let insets: EdgeInsets
    let child: LayoutNode

    init(insets: EdgeInsets, child: LayoutNode) {
        self.insets = insets
        self.child = child
    }

    override func measure(_ proposal: ProposedSize) -> CGSize {
        let inner = ProposedSize(
            width: proposal.width.map { max(0, $0 - insets.leading - insets.trailing) },
            height: proposal.height.map { max(0, $0 - insets.top - insets.bottom) })
        let size = child.size(for: inner)
        return CGSize(width: size.width + insets.leading + insets.trailing, height: size.height + insets.top + insets.bottom)
    }

    override func firstBaseline(at size: CGSize) -> CGFloat {
        insets.top + child.firstBaseline(at: inner(size))
    }

    private func inner(_ size: CGSize) -> CGSize {
        CGSize(width: max(0, size.width - insets.leading - insets.trailing), height: max(0, size.height - insets.top - insets.bottom))
    }

    override func place(in frame: CGRect, _ emitter: inout NodeEmitter) {
        let size = child.size(for: ProposedSize(inner(frame.size)))
        child.place(
            in: CGRect(x: frame.minX + insets.leading, y: frame.minY + insets.top, width: size.width, height: size.height), &emitter)
    }
}

/// `frame(width:height:alignment:)`: a fixed size on the axes given, the child aligned in it.
final class FixedFrameNode: LayoutNode {
    let width: CGFloat?
    let height: CGFloat?
    let alignment: Alignment
    let child: LayoutNode

    init(width: CGFloat?, height: CGFloat?, alignment: Alignment, child: LayoutNode) {
        self.width = width.map { max(0, $0) }
        self.height = height.map { max(0, $0) }
        self.alignment = alignment
        self.child = child
    }

    override func measure(_ proposal: ProposedSize) -> CGSize {
        if let width, let height { return CGSize(width: width, height: height) }
        let size = child.size(for: ProposedSize(width: width ?? proposal.width, height: height ?? proposal.height))
        return CGSize(width: width ?? size.width, height: height ?? size.height)
    }

    override func place(in frame: CGRect, _ emitter: inout NodeEmitter) {
        let size = child.size(for: ProposedSize(frame.size))
        child.place(in: CGRect(origin: alignment.origin(of: size, in: frame), size: size), &emitter)
    }
}

/// `frame(minWidth:idealWidth:maxWidth:minHeight:idealHeight:maxHeight:alignment:)`: the
/// child's size clamped to the bounds, growing to the proposal up to the maximum
/// (`maxWidth: .infinity` takes all the width offered).
final class FlexibleFrameNode: LayoutNode {
    struct Bounds {
        var min: CGFloat?
        var ideal: CGFloat?
        var max: CGFloat?
    }

    let horizontal: Bounds
    let vertical: Bounds
    let alignment: Alignment
    let child: LayoutNode

    init(horizontal: Bounds, vertical: Bounds, alignment: Alignment, child: LayoutNode) {
        self.horizontal = horizontal
        self.vertical = vertical
        self.alignment = alignment
        self.child = child
    }

    private static func childProposal(_ proposed: CGFloat?, _ b: Bounds) -> CGFloat? {
        guard var p = proposed ?? b.ideal else { return nil }
        if let lower = b.min { p = Swift.max(p, lower) }
        if let upper = b.max { p = Swift.min(p, upper) }
        return p
    }

    private static func extent(_ child: CGFloat, _ proposed: CGFloat?, _ b: Bounds) -> CGFloat {
        guard let proposed else {
            if let ideal = b.ideal { return ideal }
            var v = child
            if let lower = b.min { v = Swift.max(v, lower) }
            if let upper = b.max { v = Swift.min(v, upper) }
            return v
        }
        var v = child
        if let lower = b.min { v = Swift.max(lower, Swift.min(v, proposed)) }
        if let upper = b.max { v = Swift.min(upper, Swift.max(v, proposed)) }
        return v
    }

    override func measure(_ proposal: ProposedSize) -> CGSize {
        let size = child.size(
            for: ProposedSize(
                width: Self.childProposal(proposal.width, horizontal),
                height: Self.childProposal(proposal.height, vertical)))
        return CGSize(
            width: Self.extent(size.width, proposal.width, horizontal), height: Self.extent(size.height, proposal.height, vertical))
    }

    override func place(in frame: CGRect, _ emitter: inout NodeEmitter) {
        let size = child.size(
            for: ProposedSize(
                width: Self.childProposal(frame.width, horizontal),
                height: Self.childProposal(frame.height, vertical)))
        child.place(in: CGRect(origin: alignment.origin(of: size, in: frame), size: size), &emitter)
    }
}

/// `fixedSize`: the child at its ideal size on the axes given.
final class FixedSizeNode: LayoutNode {
    let horizontal: Bool
    let vertical: Bool
    let child: LayoutNode

    init(horizontal: Bool, vertical: Bool, child: LayoutNode) {
        self.horizontal = horizontal
        self.vertical = vertical
        self.child = child
    }

    override func measure(_ proposal: ProposedSize) -> CGSize {
        child.size(for: ProposedSize(width: horizontal ? nil : proposal.width, height: vertical ? nil : proposal.height))
    }

    override func place(in frame: CGRect, _ emitter: inout NodeEmitter) {
        let size = child.size(for: ProposedSize(width: horizontal ? nil : frame.width, height: vertical ? nil : frame.height))
        child.place(in: CGRect(origin: Alignment.center.origin(of: size, in: frame), size: size), &emitter)
    }
}

/// `aspectRatio`: the child offered the largest size of the ratio that fits (or the smallest
/// that fills) the space proposed.
final class AspectRatioNode: LayoutNode {
    let ratio: CGFloat?
    let mode: ContentMode
    let child: LayoutNode

    init(ratio: CGFloat?, mode: ContentMode, child: LayoutNode) {
        self.ratio = ratio
        self.mode = mode
        self.child = child
    }

    private func target(_ proposal: ProposedSize) -> ProposedSize {
        let ideal = child.size(for: .unspecified)
        let r = ratio ?? (ideal.height > 0 ? ideal.width / ideal.height : 1)
        guard r > 0, r.isFinite else { return proposal }
        switch (proposal.width, proposal.height) {
        case (nil, nil):
            return ProposedSize(width: ideal.width, height: ideal.width / r)
        case (let w?, nil):
            return ProposedSize(width: w, height: w / r)
        case (nil, let h?):
            return ProposedSize(width: h * r, height: h)
        case (let w?, let h?):
            let byWidth = CGSize(width: w, height: w / r), byHeight = CGSize(width: h * r, height: h)
            let fits = byWidth.height <= h
            let chosen = mode == .fit ? (fits ? byWidth : byHeight) : (fits ? byHeight : byWidth)
            return ProposedSize(chosen)
        }
    }

    override func measure(_ proposal: ProposedSize) -> CGSize {
        child.size(for: target(proposal))
    }

    override func place(in frame: CGRect, _ emitter: inout NodeEmitter) {
        let size = child.size(for: target(ProposedSize(frame.size)))
        child.place(in: CGRect(origin: Alignment.center.origin(of: size, in: frame), size: size), &emitter)
    }
}

/// `offset`: drawn moved, laid out where it was.
final class OffsetNode: LayoutNode {
    let offset: CGSize
    let child: LayoutNode

    init(offset: CGSize, child: LayoutNode) {
        self.offset = offset
        self.child = child
    }

    override func measure(_ proposal: ProposedSize) -> CGSize { child.size(for: proposal) }
    override func firstBaseline(at size: CGSize) -> CGFloat { child.firstBaseline(at: size) }

    override func place(in frame: CGRect, _ emitter: inout NodeEmitter) {
        child.place(in: frame.offsetBy(dx: offset.width, dy: offset.height), &emitter)
    }
}

/// `background` and `overlay`: a second view offered the first one's size, aligned on it,
/// drawn under or over it.
final class LayeredNode: LayoutNode {
    let primary: LayoutNode
    let secondary: LayoutNode
    let alignment: Alignment
    let isOverlay: Bool

    init(primary: LayoutNode, secondary: LayoutNode, alignment: Alignment, isOverlay: Bool) {
        self.primary = primary
        self.secondary = secondary
        self.alignment = alignment
        self.isOverlay = isOverlay
    }

    override func measure(_ proposal: ProposedSize) -> CGSize { primary.size(for: proposal) }
    override func firstBaseline(at size: CGSize) -> CGFloat { primary.firstBaseline(at: size) }
    override func lastBaseline(at size: CGSize) -> CGFloat { primary.lastBaseline(at: size) }

    override func place(in frame: CGRect, _ emitter: inout NodeEmitter) {
        let size = secondary.size(for: ProposedSize(frame.size))
        let secondaryFrame = CGRect(origin: alignment.origin(of: size, in: frame), size: size)
        if !isOverlay { secondary.place(in: secondaryFrame, &emitter) }
        primary.place(in: frame, &emitter)
        if isOverlay { secondary.place(in: secondaryFrame, &emitter) }
    }
}

import SandglassIPC

/// An image by name and size: its own size unless resizable, then the space proposed.
final class ImageNode: LayoutNode {
    let reference: ImageReference
    /// Points.
    let intrinsic: CGSize
    let resizable: Bool
    let tint: ViewPaint?
    let flags: ViewNode.Flags

    init(reference: ImageReference, intrinsic: CGSize, resizable: Bool, tint: ViewPaint?, flags: ViewNode.Flags) {
        self.reference = reference
        self.intrinsic = intrinsic
        self.resizable = resizable
        self.tint = tint
        self.flags = flags
    }

    override func measure(_ proposal: ProposedSize) -> CGSize {
        resizable ? proposal.replacingUnspecified(with: intrinsic) : intrinsic
    }

    override func firstBaseline(at size: CGSize) -> CGFloat {
        reference.source == .symbol ? size.height * 0.85 : size.height
    }

    override func place(in frame: CGRect, _ emitter: inout NodeEmitter) {
        var node = ViewNode(.image, frame)
        node.image = reference
        node.fill = tint
        node.flags = flags
        emitter.leaf(node)
    }
}

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
        let child = content(GeometryProxy(size: frame.size, frame: frame))
        let size = child.size(for: ProposedSize(frame.size))
        child.place(in: CGRect(origin: frame.origin, size: size), &emitter)
    }
}

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
            let ideal = child.size(for: ProposedSize(width: axes.contains(.horizontal) ? nil : proposal.width,
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

/// The bar, ring or dot of a `Gauge` or `ProgressView`.
final class MeterNode: LayoutNode {
    let kind: ViewNode.Kind
    let meter: MeterValue
    let tint: ViewPaint
    let flags: ViewNode.Flags
    /// The thickness of a bar; the ideal diameter of a ring.
    let thickness: CGFloat

    init(kind: ViewNode.Kind, meter: MeterValue, tint: ViewPaint, flags: ViewNode.Flags, thickness: CGFloat) {
        self.kind = kind
        self.meter = meter
        self.tint = tint
        self.flags = flags
        self.thickness = thickness
    }

    private var isCircular: Bool { meter.style == .circular || meter.style == .circularDot }

    override func measure(_ proposal: ProposedSize) -> CGSize {
        if isCircular {
            let side = min(proposal.width ?? thickness, proposal.height ?? thickness)
            return CGSize(width: side, height: side)
        }
        return CGSize(width: proposal.width ?? 100, height: thickness)
    }

    override func place(in frame: CGRect, _ emitter: inout NodeEmitter) {
        var node = ViewNode(kind, frame)
        node.meter = meter
        node.fill = tint
        node.flags = flags
        emitter.leaf(node)
    }
}

/// The switch of a `Toggle`: 51 × 31 points.
final class SwitchNode: LayoutNode {
    let isOn: Bool
    let tint: ViewPaint

    init(isOn: Bool, tint: ViewPaint) {
        self.isOn = isOn
        self.tint = tint
    }

    override func measure(_ proposal: ProposedSize) -> CGSize { CGSize(width: 51, height: 31) }

    override func place(in frame: CGRect, _ emitter: inout NodeEmitter) {
        var node = ViewNode(.toggle, frame)
        node.fill = tint
        if isOn { node.flags.insert(.isOn) }
        emitter.leaf(node)
    }
}

import SandglassIPC

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

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

import SandglassIPC

/// What a group draws around its content: clip, opacity, rotation, shadow, link, intent,
/// accessibility label, flags; or nothing at all (`hidden`).
struct GroupAttributes {
    var opacity: CGFloat = 1
    var clip: ShapeOutline?
    var rotation: Angle?
    var shadow: ViewShadow?
    var url: String?
    var intent: String?
    var label: String?
    var flags: ViewNode.Flags = []
    var isHidden = false
}

/// A child drawn inside a group node that carries ``GroupAttributes``.
final class GroupNode: LayoutNode {
    let attributes: GroupAttributes
    let child: LayoutNode

    init(_ attributes: GroupAttributes, child: LayoutNode) {
        self.attributes = attributes
        self.child = child
        super.init()
        priority = child.priority
    }

    override func measure(_ proposal: ProposedSize) -> CGSize { child.size(for: proposal) }
    override func firstBaseline(at size: CGSize) -> CGFloat { child.firstBaseline(at: size) }
    override func lastBaseline(at size: CGSize) -> CGFloat { child.lastBaseline(at: size) }
    override var isEmpty: Bool { child.isEmpty }
    override var stackAxis: Axis? {
        didSet { child.stackAxis = stackAxis }
    }

    override func place(in frame: CGRect, _ emitter: inout NodeEmitter) {
        guard !attributes.isHidden else { return }
        var node = ViewNode(.group, frame)
        node.opacity = Float(attributes.opacity)
        node.shape = attributes.clip?.resolved(in: frame, emitter)
        node.rotation = Float(attributes.rotation?.degrees ?? 0)
        node.shadow = attributes.shadow
        node.url = attributes.url
        node.intent = attributes.intent
        node.label = attributes.label
        node.flags = attributes.flags
        emitter.group(node) { child.place(in: frame, &$0) }
    }
}

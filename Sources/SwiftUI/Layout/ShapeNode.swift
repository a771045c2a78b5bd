import SandglassIPC

/// The outline of a shape as this module draws it.
enum ShapeOutline {
    case builtIn(ViewShape)
    /// `ContainerRelativeShape`: concentric with the widget's corners.
    case containerRelative
    /// A custom `Shape` (and a circle): its path in a rectangle at the origin.
    case custom(@MainActor (CGRect) -> Path)

    /// The outline in `frame`. Layout runs on the main actor (``WidgetRenderer``); only a custom
    /// shape's path, view code, needs it said.
    func resolved(in frame: CGRect, _ emitter: NodeEmitter) -> ViewShape {
        switch self {
        case .builtIn(let shape): shape
        case .containerRelative: .roundedRectangle(radius: Float(emitter.containerRadius(for: frame)))
        case .custom(let path):
            .path(LayoutNode.callingViewCode { path(CGRect(origin: .zero, size: frame.size)) }.svgData(offset: frame.origin))
        }
    }
}

/// A shape, a colour or a gradient: takes the whole space proposed (10 × 10 when asked for its
/// ideal size), filled or stroked.
final class ShapeNode: LayoutNode {
    let outline: ShapeOutline
    let fill: ViewPaint?
    let stroke: ViewStroke?
    let strokeInside: Bool
    let trim: (from: CGFloat, to: CGFloat)?
    let flags: ViewNode.Flags

    init(
        outline: ShapeOutline, fill: ViewPaint?, stroke: ViewStroke? = nil, strokeInside: Bool = false,
        trim: (from: CGFloat, to: CGFloat)? = nil, flags: ViewNode.Flags = []
    ) {
        self.outline = outline
        self.fill = fill
        self.stroke = stroke
        self.strokeInside = strokeInside
        self.trim = trim
        self.flags = flags
    }

    convenience init(shape: ViewShape, fill: ViewPaint?) {
        self.init(outline: .builtIn(shape), fill: fill)
    }

    override func measure(_ proposal: ProposedSize) -> CGSize {
        proposal.replacingUnspecified(with: CGSize(width: 10, height: 10))
    }

    override func place(in frame: CGRect, _ emitter: inout NodeEmitter) {
        var node = ViewNode(.shape, frame)
        var shape = outline.resolved(in: frame, emitter)
        if let trim { shape = .trimmed(shape, from: Float(trim.from), to: Float(trim.to)) }
        node.shape = shape
        node.fill = fill
        node.stroke = stroke
        node.flags = flags
        if strokeInside { node.flags.insert(.strokeInside) }
        emitter.leaf(node)
    }
}

/// `Spacer`: along its stack's axis, as much room as is left (at least its minimum); across
/// it, none. Outside a stack, flexible both ways.
final class SpacerNode: LayoutNode {
    let minLength: CGFloat?

    init(minLength: CGFloat?) {
        self.minLength = minLength
    }

    override func measure(_ proposal: ProposedSize) -> CGSize {
        let minimum = minLength ?? 8
        guard let axis = stackAxis else {
            return CGSize(width: max(proposal.width ?? 0, 0), height: max(proposal.height ?? 0, 0))
        }
        return CGSize(axis, along: max(proposal[axis] ?? minimum, minimum), across: 0)
    }
}

/// `Divider`: a hairline across its stack's axis (horizontal outside a stack).
final class DividerNode: LayoutNode {
    let paint: ViewPaint

    init(paint: ViewPaint) {
        self.paint = paint
    }

    private var lineAxis: Axis { stackAxis == .horizontal ? .vertical : .horizontal }

    override func measure(_ proposal: ProposedSize) -> CGSize {
        CGSize(lineAxis, along: proposal[lineAxis] ?? 0, across: 0.5)
    }

    override func place(in frame: CGRect, _ emitter: inout NodeEmitter) {
        var node = ViewNode(.shape, frame)
        node.shape = .rectangle
        node.fill = paint
        emitter.leaf(node)
    }
}

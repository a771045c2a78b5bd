import SandglassIPC

/// A size a parent proposes to a child; `nil` on an axis asks for the child's ideal size there.
struct ProposedSize: Hashable {
    var width: CGFloat?
    var height: CGFloat?

    static let unspecified = ProposedSize(width: nil, height: nil)

    init(width: CGFloat?, height: CGFloat?) {
        self.width = width
        self.height = height
    }

    init(_ size: CGSize) {
        self.init(width: size.width, height: size.height)
    }

    subscript(axis: Axis) -> CGFloat? {
        get { axis == .horizontal ? width : height }
        set { if axis == .horizontal { width = newValue } else { height = newValue } }
    }

    /// The size with `replacing` for the axes the proposal leaves open.
    func replacingUnspecified(with size: CGSize) -> CGSize {
        CGSize(width: width ?? size.width, height: height ?? size.height)
    }
}

extension CGSize {
    subscript(axis: Axis) -> CGFloat {
        get { axis == .horizontal ? width : height }
        set { if axis == .horizontal { width = newValue } else { height = newValue } }
    }

    init(_ axis: Axis, along: CGFloat, across: CGFloat) {
        self = axis == .horizontal ? CGSize(width: along, height: across) : CGSize(width: across, height: along)
    }
}

extension Axis {
    var other: Axis { self == .horizontal ? .vertical : .horizontal }
}

/// A view evaluated for one entry, ready to be laid out: SwiftUI's layout protocol in small.
/// A parent proposes a size; the node says the size it takes; the parent places it in a frame
/// of that size, and the node emits what it draws.
///
/// Not isolated to the main actor, although layout runs there (``WidgetRenderer``): in a
/// main-actor class every closure of the layout's arithmetic (`map`, `filter`, `first(where:)`,
/// `sorted(by:)`) checks at run time that it runs on the main actor — a fifth of the CPU of
/// laying out an entry. The two places that call view code (a `GeometryReader`'s content, a
/// custom shape's path) say so with ``callingViewCode(_:)``.
class LayoutNode {
    /// `layoutPriority`: stacks give room to higher priorities first.
    var priority: Double = 0
    private var cache: [(ProposedSize, CGSize)] = []

    /// The size the node takes for `proposal` (remembered for the last few proposals).
    final func size(for proposal: ProposedSize) -> CGSize {
        if let hit = cache.first(where: { $0.0 == proposal }) { return hit.1 }
        let size = measure(proposal)
        if cache.count >= 6 { cache.removeFirst() }
        cache.append((proposal, size))
        return size
    }

    /// The node's own sizing; subclasses override it.
    func measure(_ proposal: ProposedSize) -> CGSize { .zero }

    /// Emits what the node draws in `frame` (widget coordinates).
    func place(in frame: CGRect, _ emitter: inout NodeEmitter) {}

    /// The distance from the top to the first baseline of the node at `size`.
    func firstBaseline(at size: CGSize) -> CGFloat { size.height }

    /// The distance from the top to the last baseline of the node at `size`.
    func lastBaseline(at size: CGSize) -> CGFloat { size.height }

    /// Takes no room and no spacing in a stack (`EmptyView`).
    var isEmpty: Bool { false }

    /// The axis of the stack the node is in, for spacers and dividers.
    var stackAxis: Axis?

    /// Calls view code from layout, which runs on the main actor: checked once, here, then
    /// called as what it is on this thread — as `MainActor.assumeIsolated` does it, which wants
    /// a `Sendable` result (a node is not one, and it never leaves the main thread).
    static func callingViewCode<T>(_ body: @MainActor () -> T) -> T {
        MainActor.preconditionIsolated("a widget's views are laid out on the main actor")
        return withoutActuallyEscaping(body) { body in unsafeBitCast(body, to: (() -> T).self)() }
    }

    /// The one node standing for `nodes`: several make a vertical stack, none an empty node.
    static func single(_ nodes: [LayoutNode]) -> LayoutNode {
        switch nodes.count {
        case 0: EmptyNode()
        case 1: nodes[0]
        default: StackNode(axis: .vertical, alignment: 0.5, verticalAlignment: .center, spacing: nil, children: nodes)
        }
    }
}

/// No view: no size, nothing drawn.
final class EmptyNode: LayoutNode {
    override var isEmpty: Bool { true }
}

/// The nodes of a tree as they are placed, in pre-order, each group counting its children.
struct NodeEmitter {
    private(set) var nodes: [ViewNode] = []
    /// The index of each open group and how many direct children it has so far.
    private var open: [(index: Int, children: Int)] = []
    /// The widget's frame and corner radius, for `ContainerRelativeShape`.
    let widget: CGRect
    let cornerRadius: CGFloat

    init(widget: CGRect, cornerRadius: CGFloat) {
        self.widget = widget
        self.cornerRadius = cornerRadius
    }

    /// Adds a node with no children.
    mutating func leaf(_ node: ViewNode) {
        countChild()
        nodes.append(node)
    }

    /// Adds a group and the children `body` emits.
    mutating func group(_ node: ViewNode, _ body: (inout NodeEmitter) -> Void) {
        countChild()
        open.append((nodes.count, 0))
        nodes.append(node)
        body(&self)
        let (index, children) = open.removeLast()
        nodes[index].childCount = children
    }

    private mutating func countChild() {
        if !open.isEmpty { open[open.count - 1].children += 1 }
    }

    /// The corner radius of a shape in `frame` concentric with the widget's corners.
    func containerRadius(for frame: CGRect) -> CGFloat {
        let inset = min(frame.minX - widget.minX, frame.minY - widget.minY, widget.maxX - frame.maxX, widget.maxY - frame.maxY)
        return max(0, cornerRadius - max(0, inset))
    }
}

extension ViewNode {
    /// A node of `kind` in `frame`.
    init(_ kind: Kind, _ frame: CGRect) {
        self.init(kind: kind, x: Float(frame.minX), y: Float(frame.minY), width: Float(frame.width), height: Float(frame.height))
    }
}

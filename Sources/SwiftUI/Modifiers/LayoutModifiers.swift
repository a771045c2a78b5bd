extension View {
    /// Room around the view: `length` points on `edges` (the system's 16 when `nil`).
    public func padding(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> ModifiedContent<Self, _PrimitiveModifier> {
        padding(EdgeInsets(edges, length ?? 16))
    }

    /// `length` points of room on every side.
    public func padding(_ length: CGFloat) -> ModifiedContent<Self, _PrimitiveModifier> {
        padding(.all, length)
    }

    /// Room around the view, side by side.
    public func padding(_ insets: EdgeInsets) -> ModifiedContent<Self, _PrimitiveModifier> {
        wrappingNodes { node, _ in PaddingNode(insets: insets, child: node) }
    }

    /// A fixed width, height, or both; the view aligned inside.
    public func frame(
        width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center
    ) -> ModifiedContent<Self, _PrimitiveModifier> {
        wrappingNodes { node, _ in FixedFrameNode(width: width, height: height, alignment: alignment, child: node) }
    }

    /// Bounds on the view's size; `maxWidth: .infinity` takes all the width offered.
    public func frame(
        minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil,
        minHeight: CGFloat? = nil, idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil,
        alignment: Alignment = .center
    ) -> ModifiedContent<Self, _PrimitiveModifier> {
        wrappingNodes { node, _ in
            FlexibleFrameNode(
                horizontal: .init(min: minWidth, ideal: idealWidth, max: maxWidth),
                vertical: .init(min: minHeight, ideal: idealHeight, max: maxHeight), alignment: alignment, child: node)
        }
    }

    /// The view at its ideal size.
    public func fixedSize() -> ModifiedContent<Self, _PrimitiveModifier> {
        fixedSize(horizontal: true, vertical: true)
    }

    /// The view at its ideal size on the axes given.
    public func fixedSize(horizontal: Bool, vertical: Bool) -> ModifiedContent<Self, _PrimitiveModifier> {
        wrappingNodes { node, _ in FixedSizeNode(horizontal: horizontal, vertical: vertical, child: node) }
    }

    /// The view's priority when a stack shares out its room (higher first; 0 by default).
    public func layoutPriority(_ value: Double) -> ModifiedContent<Self, _PrimitiveModifier> {
        wrappingNodes { node, _ in
            node.priority = value
            return node
        }
    }

    /// The view kept at an aspect ratio (its own when `nil`), fitting or filling its space.
    public func aspectRatio(_ aspectRatio: CGFloat? = nil, contentMode: ContentMode) -> ModifiedContent<Self, _PrimitiveModifier> {
        wrappingNodes { node, _ in AspectRatioNode(ratio: aspectRatio, mode: contentMode, child: node) }
    }

    /// The view kept at the aspect ratio of `aspectRatio`.
    public func aspectRatio(_ aspectRatio: CGSize, contentMode: ContentMode) -> ModifiedContent<Self, _PrimitiveModifier> {
        self.aspectRatio(aspectRatio.height > 0 ? aspectRatio.width / aspectRatio.height : nil, contentMode: contentMode)
    }

    /// The view scaled to fit its space, keeping its aspect ratio.
    public func scaledToFit() -> ModifiedContent<Self, _PrimitiveModifier> { aspectRatio(contentMode: .fit) }

    /// The view scaled to fill its space, keeping its aspect ratio.
    public func scaledToFill() -> ModifiedContent<Self, _PrimitiveModifier> { aspectRatio(contentMode: .fill) }

    /// The view drawn moved, laid out where it was.
    public func offset(_ offset: CGSize) -> ModifiedContent<Self, _PrimitiveModifier> {
        wrappingNodes { node, _ in OffsetNode(offset: offset, child: node) }
    }

    /// The view drawn moved by `x` and `y` points.
    public func offset(x: CGFloat = 0, y: CGFloat = 0) -> ModifiedContent<Self, _PrimitiveModifier> {
        offset(CGSize(width: x, height: y))
    }

    /// The view laid out but not drawn.
    public func hidden() -> ModifiedContent<Self, _PrimitiveModifier> {
        grouped { $0.isHidden = true }
    }

    /// An identity for the view (a widget has no state to keep by it).
    public func id<ID: Hashable>(_ id: ID) -> Self { self }

    /// Safe areas (a widget has none).
    public func ignoresSafeArea(_ regions: SafeAreaRegions = .all, edges: Edge.Set = .all) -> Self { self }

    /// Safe areas (a widget has none).
    public func edgesIgnoringSafeArea(_ edges: Edge.Set) -> Self { self }
}

/// The kinds of safe area.
public struct SafeAreaRegions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let container = SafeAreaRegions(rawValue: 1)
    public static let keyboard = SafeAreaRegions(rawValue: 2)
    public static let all: SafeAreaRegions = [.container, .keyboard]
}

/// A side of a rectangle.
public enum Edge: Int8, Sendable, Hashable, CaseIterable {
    case top, leading, bottom, trailing

    /// A set of sides.
    public struct Set: OptionSet, Sendable, Hashable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }

        public init(_ edge: Edge) { rawValue = 1 << edge.rawValue }

        public static let top = Set(.top)
        public static let leading = Set(.leading)
        public static let bottom = Set(.bottom)
        public static let trailing = Set(.trailing)
        public static let all: Set = [.top, .leading, .bottom, .trailing]
        public static let horizontal: Set = [.leading, .trailing]
        public static let vertical: Set = [.top, .bottom]
    }
}

/// Insets on each side, in points.
public struct EdgeInsets: Sendable, Hashable {
    public var top: CGFloat
    public var leading: CGFloat
    public var bottom: CGFloat
    public var trailing: CGFloat

    public init(top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    public init() {
        self.init(top: 0, leading: 0, bottom: 0, trailing: 0)
    }

    init(_ edges: Edge.Set, _ length: CGFloat) {
        self.init(
            top: edges.contains(.top) ? length : 0, leading: edges.contains(.leading) ? length : 0,
            bottom: edges.contains(.bottom) ? length : 0, trailing: edges.contains(.trailing) ? length : 0)
    }
}

/// The horizontal or the vertical axis.
public enum Axis: Int8, Sendable, Hashable, CaseIterable {
    case horizontal, vertical

    /// A set of axes.
    public struct Set: OptionSet, Sendable, Hashable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static let horizontal = Set(rawValue: 1)
        public static let vertical = Set(rawValue: 2)
    }
}

/// A point in a view's frame in fractions of its size: (0, 0) top leading, (1, 1) bottom trailing.
public struct UnitPoint: Sendable, Hashable {
    public var x: CGFloat
    public var y: CGFloat

    public init() { self.init(x: 0, y: 0) }

    public init(x: CGFloat, y: CGFloat) {
        self.x = x
        self.y = y
    }

    public static let zero = UnitPoint(x: 0, y: 0)
    public static let center = UnitPoint(x: 0.5, y: 0.5)
    public static let leading = UnitPoint(x: 0, y: 0.5)
    public static let trailing = UnitPoint(x: 1, y: 0.5)
    public static let top = UnitPoint(x: 0.5, y: 0)
    public static let bottom = UnitPoint(x: 0.5, y: 1)
    public static let topLeading = UnitPoint(x: 0, y: 0)
    public static let topTrailing = UnitPoint(x: 1, y: 0)
    public static let bottomLeading = UnitPoint(x: 0, y: 1)
    public static let bottomTrailing = UnitPoint(x: 1, y: 1)
}

/// An angle.
public struct Angle: Sendable, Hashable, Comparable {
    public var radians: Double
    public var degrees: Double {
        get { radians * 180 / .pi }
        set { radians = newValue * .pi / 180 }
    }

    public init() { radians = 0 }
    public init(radians: Double) { self.radians = radians }
    public init(degrees: Double) { radians = degrees * .pi / 180 }

    public static func radians(_ radians: Double) -> Angle { Angle(radians: radians) }
    public static func degrees(_ degrees: Double) -> Angle { Angle(degrees: degrees) }
    public static let zero = Angle()

    public static func < (a: Angle, b: Angle) -> Bool { a.radians < b.radians }
}

/// How content fills a space of another aspect ratio.
public enum ContentMode: Sendable, Hashable, CaseIterable {
    /// Whole, inside the space.
    case fit
    /// Covering the space, cut at its edges.
    case fill
}

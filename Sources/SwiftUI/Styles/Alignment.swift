/// Where views line up horizontally in a vertical stack or a frame.
public struct HorizontalAlignment: Sendable, Hashable {
    /// 0 leading, 0.5 centre, 1 trailing.
    let fraction: CGFloat

    public static let leading = HorizontalAlignment(fraction: 0)
    public static let center = HorizontalAlignment(fraction: 0.5)
    public static let trailing = HorizontalAlignment(fraction: 1)
    /// As `.leading` for a text's first line.
    public static let listRowSeparatorLeading = HorizontalAlignment(fraction: 0)
}

/// Where views line up vertically in a horizontal stack or a frame.
public struct VerticalAlignment: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case fraction(CGFloat)
        case firstTextBaseline
        case lastTextBaseline
    }

    let kind: Kind

    public static let top = VerticalAlignment(kind: .fraction(0))
    public static let center = VerticalAlignment(kind: .fraction(0.5))
    public static let bottom = VerticalAlignment(kind: .fraction(1))
    /// The baselines of the first lines of text line up.
    public static let firstTextBaseline = VerticalAlignment(kind: .firstTextBaseline)
    /// The baselines of the last lines of text line up.
    public static let lastTextBaseline = VerticalAlignment(kind: .lastTextBaseline)

    /// 0 top, 0.5 centre, 1 bottom; the baselines as the bottom.
    var fraction: CGFloat {
        if case .fraction(let f) = kind { return f }
        return 1
    }
}

/// A horizontal and a vertical alignment.
public struct Alignment: Sendable, Hashable {
    public var horizontal: HorizontalAlignment
    public var vertical: VerticalAlignment

    public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    public static let center = Alignment(horizontal: .center, vertical: .center)
    public static let leading = Alignment(horizontal: .leading, vertical: .center)
    public static let trailing = Alignment(horizontal: .trailing, vertical: .center)
    public static let top = Alignment(horizontal: .center, vertical: .top)
    public static let bottom = Alignment(horizontal: .center, vertical: .bottom)
    public static let topLeading = Alignment(horizontal: .leading, vertical: .top)
    public static let topTrailing = Alignment(horizontal: .trailing, vertical: .top)
    public static let bottomLeading = Alignment(horizontal: .leading, vertical: .bottom)
    public static let bottomTrailing = Alignment(horizontal: .trailing, vertical: .bottom)
    public static let centerFirstTextBaseline = Alignment(horizontal: .center, vertical: .firstTextBaseline)
    public static let leadingFirstTextBaseline = Alignment(horizontal: .leading, vertical: .firstTextBaseline)

    /// The origin of a box of `size` aligned in `frame`.
    func origin(of size: CGSize, in frame: CGRect) -> CGPoint {
        CGPoint(
            x: frame.minX + (frame.width - size.width) * horizontal.fraction,
            y: frame.minY + (frame.height - size.height) * vertical.fraction)
    }
}

/// How the lines of a text align.
public enum TextAlignment: Sendable, Hashable, CaseIterable {
    case leading
    case center
    case trailing
}

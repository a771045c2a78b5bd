/// The outline of a shape, as lines and curves.
///
/// ```swift
/// Path { path in
///     path.move(to: CGPoint(x: 0, y: 40))
///     for (i, value) in values.enumerated() { path.addLine(to: CGPoint(x: CGFloat(i) * 10, y: 40 - value)) }
/// }
/// .stroke(.green, lineWidth: 2)
/// ```
public struct Path: Sendable, Equatable {
    enum Element: Sendable, Equatable {
        case move(CGPoint)
        case line(CGPoint)
        case quad(CGPoint, control: CGPoint)
        case cubic(CGPoint, control1: CGPoint, control2: CGPoint)
        case close
    }

    private(set) var elements: [Element] = []
    private var current = CGPoint.zero

    public init() {}

    public init(_ callback: (inout Path) -> Void) {
        callback(&self)
    }

    public init(_ rect: CGRect) {
        addRect(rect)
    }

    public init(roundedRect rect: CGRect, cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) {
        addRoundedRect(in: rect, cornerSize: CGSize(width: cornerRadius, height: cornerRadius), style: style)
    }

    public init(ellipseIn rect: CGRect) {
        addEllipse(in: rect)
    }

    public var isEmpty: Bool { elements.isEmpty }

    public mutating func move(to point: CGPoint) {
        elements.append(.move(point))
        current = point
    }

    public mutating func addLine(to point: CGPoint) {
        if elements.isEmpty { move(to: current) }
        elements.append(.line(point))
        current = point
    }

    public mutating func addLines(_ points: [CGPoint]) {
        guard let first = points.first else { return }
        move(to: first)
        for point in points.dropFirst() { addLine(to: point) }
    }

    public mutating func addQuadCurve(to point: CGPoint, control: CGPoint) {
        elements.append(.quad(point, control: control))
        current = point
    }

    public mutating func addCurve(to point: CGPoint, control1: CGPoint, control2: CGPoint) {
        elements.append(.cubic(point, control1: control1, control2: control2))
        current = point
    }

    public mutating func closeSubpath() {
        elements.append(.close)
    }

    public mutating func addRect(_ rect: CGRect) {
        move(to: CGPoint(x: rect.minX, y: rect.minY))
        addLine(to: CGPoint(x: rect.maxX, y: rect.minY))
        addLine(to: CGPoint(x: rect.maxX, y: rect.maxY))
        addLine(to: CGPoint(x: rect.minX, y: rect.maxY))
        closeSubpath()
    }

    public mutating func addRoundedRect(in rect: CGRect, cornerSize: CGSize, style: RoundedCornerStyle = .continuous) {
        let rx = min(cornerSize.width, rect.width / 2), ry = min(cornerSize.height, rect.height / 2)
        let k: CGFloat = 0.5523
        move(to: CGPoint(x: rect.minX + rx, y: rect.minY))
        addLine(to: CGPoint(x: rect.maxX - rx, y: rect.minY))
        addCurve(
            to: CGPoint(x: rect.maxX, y: rect.minY + ry), control1: CGPoint(x: rect.maxX - rx + rx * k, y: rect.minY),
            control2: CGPoint(x: rect.maxX, y: rect.minY + ry - ry * k))
        addLine(to: CGPoint(x: rect.maxX, y: rect.maxY - ry))
        addCurve(
            to: CGPoint(x: rect.maxX - rx, y: rect.maxY), control1: CGPoint(x: rect.maxX, y: rect.maxY - ry + ry * k),
            control2: CGPoint(x: rect.maxX - rx + rx * k, y: rect.maxY))
        addLine(to: CGPoint(x: rect.minX + rx, y: rect.maxY))
        addCurve(
            to: CGPoint(x: rect.minX, y: rect.maxY - ry), control1: CGPoint(x: rect.minX + rx - rx * k, y: rect.maxY),
            control2: CGPoint(x: rect.minX, y: rect.maxY - ry + ry * k))
        addLine(to: CGPoint(x: rect.minX, y: rect.minY + ry))
        addCurve(
            to: CGPoint(x: rect.minX + rx, y: rect.minY), control1: CGPoint(x: rect.minX, y: rect.minY + ry - ry * k),
            control2: CGPoint(x: rect.minX + rx - rx * k, y: rect.minY))
        closeSubpath()
    }

    public mutating func addEllipse(in rect: CGRect) {
        addRoundedRect(in: rect, cornerSize: CGSize(width: rect.width / 2, height: rect.height / 2))
    }

    /// An arc of a circle; angles from the positive x-axis, clockwise on screen when `clockwise`
    /// is false (SwiftUI's flipped coordinates).
    public mutating func addArc(center: CGPoint, radius: CGFloat, startAngle: Angle, endAngle: Angle, clockwise: Bool) {
        var start = startAngle.radians, end = endAngle.radians
        if clockwise { while end > start { end -= 2 * .pi } } else { while end < start { end += 2 * .pi } }
        let steps = max(1, Int((abs(end - start) / (.pi / 2)).rounded(.up)))
        func point(_ a: Double) -> CGPoint { CGPoint(x: center.x + radius * cos(a), y: center.y + radius * sin(a)) }
        if elements.isEmpty { move(to: point(start)) } else { addLine(to: point(start)) }
        let step = (end - start) / Double(steps)
        for _ in 0..<steps {
            let a0 = start, a1 = start + step
            let k = 4.0 / 3.0 * tan((a1 - a0) / 4)
            let p0 = point(a0), p1 = point(a1)
            addCurve(
                to: p1, control1: CGPoint(x: p0.x - k * radius * sin(a0), y: p0.y + k * radius * cos(a0)),
                control2: CGPoint(x: p1.x + k * radius * sin(a1), y: p1.y - k * radius * cos(a1)))
            start = a1
        }
    }

    /// SVG path data, moved by `offset`.
    func svgData(offset: CGPoint) -> String {
        func n(_ v: CGFloat) -> String {
            guard v.isFinite else { return "0" }
            let r = (v * 100).rounded() / 100
            return r == r.rounded() ? String(Int(r)) : String(Double(r))
        }
        func p(_ point: CGPoint) -> String { "\(n(point.x + offset.x)) \(n(point.y + offset.y))" }
        return elements.map { element in
            switch element {
            case .move(let point): "M\(p(point))"
            case .line(let point): "L\(p(point))"
            case .quad(let point, let control): "Q\(p(control)) \(p(point))"
            case .cubic(let point, let c1, let c2): "C\(p(c1)) \(p(c2)) \(p(point))"
            case .close: "Z"
            }
        }.joined()
    }
}

/// The shape of rounded corners.
public enum RoundedCornerStyle: Sendable, Hashable {
    case circular, continuous
}

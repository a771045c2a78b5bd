/// A timed path: where the device is at each moment of a run (`--route FILE`).
///
/// Between points the position moves in a straight line; before the first point it is the
/// first, after the last it stays at the last — unless the route repeats, in which case it
/// starts over every `period` (the last point's offset).
public struct Route: Sendable, Hashable {
    /// One point: its offset from the start of the route, in seconds, and where.
    public struct Point: Sendable, Hashable {
        public var offset: Double
        public var coordinate: GeoCoordinate

        public init(offset: Double, coordinate: GeoCoordinate) {
            self.offset = offset
            self.coordinate = coordinate
        }
    }

    /// The points, in order of offset (at least one).
    public var points: [Point]
    /// Start over after the last point.
    public var repeats: Bool
    /// Where the route came from, for messages.
    public var source: String

    public init(points: [Point], repeats: Bool = false, source: String = "route") {
        self.points = points.sorted { $0.offset < $1.offset }
        self.repeats = repeats
        self.source = source
    }

    /// The length of one pass, in seconds.
    public var period: Double { points.last?.offset ?? 0 }

    /// Where the device is `seconds` after the route started.
    public func position(at seconds: Double) -> GeoCoordinate {
        guard let first = points.first else { return .applePark }
        var t = seconds
        if repeats, period > 0 { t = t.truncatingRemainder(dividingBy: period) }
        if t <= first.offset { return first.coordinate }
        for (a, b) in zip(points, points.dropFirst()) where t < b.offset {
            let span = b.offset - a.offset
            return span > 0 ? a.coordinate.interpolated(to: b.coordinate, (t - a.offset) / span) : b.coordinate
        }
        return points[points.count - 1].coordinate
    }

    /// The next point's time after `seconds` (seconds since the route started), `nil` when the
    /// route has ended.
    func nextPointTime(after seconds: Double) -> Double? {
        if repeats, period > 0 {
            let pass = (seconds / period).rounded(.down)
            let within = seconds - pass * period
            if let next = points.first(where: { $0.offset > within }) { return pass * period + next.offset }
            return (pass + 1) * period + (points.first(where: { $0.offset > 0 })?.offset ?? period)
        }
        return points.first { $0.offset > seconds }?.offset
    }
}

/// Where the device is during a run: a fixed point, or a route.
public enum PositionSource: Sendable, Hashable, CustomStringConvertible {
    case fixed(GeoCoordinate)
    case route(Route)

    /// The position `seconds` after the source took effect.
    public func position(at seconds: Double) -> GeoCoordinate {
        switch self {
        case .fixed(let point): point
        case .route(let route): route.position(at: seconds)
        }
    }

    public var description: String {
        switch self {
        case .fixed(let point): point.description
        case .route(let route): "route \(route.source) (\(route.points.count) points\(route.repeats ? ", repeating" : ""))"
        }
    }
}

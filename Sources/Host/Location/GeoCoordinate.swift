import Foundation

/// A position on the Earth: latitude and longitude in degrees (WGS 84), altitude in metres.
public struct GeoCoordinate: Sendable, Hashable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double

    public init(latitude: Double, longitude: Double, altitude: Double = 0) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// Apple Park, the default position of a run.
    public static let applePark = GeoCoordinate(latitude: 37.3349, longitude: -122.0090)

    /// Whether latitude is within ±90 and longitude within ±180.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }

    /// `LAT,LON` as `--position` takes it (`37.3349,-122.0090`); `nil` when malformed or out of range.
    public init?(text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) else { return nil }
        self.init(latitude: lat, longitude: lon)
        guard isValid else { return nil }
    }

    /// Great-circle distance to `other` in metres (haversine, mean Earth radius 6,371,008.8 m).
    public func distance(to other: GeoCoordinate) -> Double {
        let radius = 6_371_008.8
        let latitude1 = latitude * .pi / 180, latitude2 = other.latitude * .pi / 180
        let deltaLatitude = latitude2 - latitude1, deltaLongitude = (other.longitude - longitude) * .pi / 180
        let a =
            sin(deltaLatitude / 2) * sin(deltaLatitude / 2) + cos(latitude1) * cos(latitude2) * sin(deltaLongitude / 2)
            * sin(deltaLongitude / 2)
        return 2 * radius * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    /// The point a fraction `f` (0…1) of the way to `other`, linearly in degrees (fine for the
    /// short legs of a route).
    func interpolated(to other: GeoCoordinate, _ f: Double) -> GeoCoordinate {
        GeoCoordinate(
            latitude: latitude + (other.latitude - latitude) * f,
            longitude: longitude + (other.longitude - longitude) * f,
            altitude: altitude + (other.altitude - altitude) * f)
    }

    /// `37.334900,-122.009000`.
    public var description: String { String(format: "%.6f,%.6f", latitude, longitude) }
}

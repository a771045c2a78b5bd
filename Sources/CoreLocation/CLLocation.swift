/// A position: coordinate, altitude, their accuracies and the time of the fix.
///
/// ```swift
/// let here = CLLocation(latitude: 52.52, longitude: 13.405)
/// let km = here.distance(from: CLLocation(latitude: 48.8566, longitude: 2.3522)) / 1000   // ≈ 878
/// ```
open class CLLocation: NSObject, @unchecked Sendable {
    /// Latitude and longitude in degrees.
    public let coordinate: CLLocationCoordinate2D
    /// Metres above sea level.
    public let altitude: CLLocationDistance
    /// Radius of uncertainty of `coordinate`, in metres; negative when invalid.
    public let horizontalAccuracy: CLLocationAccuracy
    /// Uncertainty of `altitude`, in metres; negative when invalid.
    public let verticalAccuracy: CLLocationAccuracy
    /// When the fix was made.
    public let timestamp: Date
    /// Metres per second; negative when unknown.
    public let speed: CLLocationSpeed
    /// Degrees from true north; negative when unknown.
    public let course: CLLocationDirection

    /// A location at `latitude`, `longitude`, now.
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        coordinate = CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
        altitude = 0
        horizontalAccuracy = 0
        verticalAccuracy = -1
        timestamp = Date()
        speed = -1
        course = -1
        super.init()
    }

    /// A location with every measured value given.
    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy, timestamp: Date
    ) {
        self.coordinate = coordinate
        self.altitude = altitude
        horizontalAccuracy = hAccuracy
        verticalAccuracy = vAccuracy
        self.timestamp = timestamp
        speed = -1
        course = -1
        super.init()
    }

    /// The great-circle distance to `location`, in metres (haversine on a sphere of the Earth's
    /// mean radius, 6,371,008.8 m).
    open func distance(from location: CLLocation) -> CLLocationDistance {
        let radius = 6_371_008.8
        let latitude1 = coordinate.latitude * .pi / 180, latitude2 = location.coordinate.latitude * .pi / 180
        let deltaLatitude = latitude2 - latitude1
        let deltaLongitude = (location.coordinate.longitude - coordinate.longitude) * .pi / 180
        let a =
            sin(deltaLatitude / 2) * sin(deltaLatitude / 2) + cos(latitude1) * cos(latitude2) * sin(deltaLongitude / 2)
            * sin(deltaLongitude / 2)
        return 2 * radius * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    open override var description: String {
        String(
            format: "<%+.8f,%+.8f> +/- %.2fm @ %@", coordinate.latitude, coordinate.longitude, horizontalAccuracy,
            timestamp.description)
    }
}

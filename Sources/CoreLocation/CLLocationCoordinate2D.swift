/// Degrees of latitude or longitude (WGS 84).
public typealias CLLocationDegrees = Double
/// Metres.
public typealias CLLocationDistance = Double
/// Metres of accuracy; negative when invalid.
public typealias CLLocationAccuracy = Double
/// Metres per second.
public typealias CLLocationSpeed = Double
/// Degrees from true north.
public typealias CLLocationDirection = Double

/// The best accuracy `desiredAccuracy` can ask for.
public let kCLLocationAccuracyBest: CLLocationAccuracy = -1
/// Navigation accuracy.
public let kCLLocationAccuracyBestForNavigation: CLLocationAccuracy = -2
/// Ten metres.
public let kCLLocationAccuracyNearestTenMeters: CLLocationAccuracy = 10
/// A hundred metres.
public let kCLLocationAccuracyHundredMeters: CLLocationAccuracy = 100
/// A kilometre.
public let kCLLocationAccuracyKilometer: CLLocationAccuracy = 1000
/// Three kilometres: for widgets, Apple recommends the lowest resolution that will do.
public let kCLLocationAccuracyThreeKilometers: CLLocationAccuracy = 3000
/// Reduced accuracy.
public let kCLLocationAccuracyReduced: CLLocationAccuracy = 3000
/// No distance filter: every movement is reported.
public let kCLDistanceFilterNone: CLLocationDistance = -1

/// A latitude and longitude in degrees (WGS 84).
///
/// ```swift
/// let cupertino = CLLocationCoordinate2D(latitude: 37.3349, longitude: -122.0090)
/// ```
public struct CLLocationCoordinate2D: Sendable, Hashable {
    public var latitude: CLLocationDegrees
    public var longitude: CLLocationDegrees

    /// The coordinate 0, 0.
    public init() {
        latitude = 0
        longitude = 0
    }

    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Whether `coordinate` is a valid latitude (−90…90) and longitude (−180…180).
public func CLLocationCoordinate2DIsValid(_ coordinate: CLLocationCoordinate2D) -> Bool {
    (-90...90).contains(coordinate.latitude) && (-180...180).contains(coordinate.longitude)
}

/// `CLLocationCoordinate2D(latitude:longitude:)`.
public func CLLocationCoordinate2DMake(_ latitude: CLLocationDegrees, _ longitude: CLLocationDegrees) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}

/// An invalid coordinate.
public let kCLLocationCoordinate2DInvalid = CLLocationCoordinate2D(latitude: -180, longitude: -180)

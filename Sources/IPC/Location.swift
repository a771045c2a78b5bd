/// `CLAuthorizationStatus` (Apple's raw values).
public enum AuthorizationStatusCode: UInt8, Sendable, Hashable, CaseIterable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case authorizedAlways = 3
    case authorizedWhenInUse = 4
}

/// The location authorization an extension sees: the containing app's status, and whether this
/// widget may receive location (`isAuthorizedForWidgetUpdates` is `widgetApproved` with an
/// authorized `status`).
public struct LocationAuthorizationPayload: Sendable, Hashable {
    /// The containing app's authorization (extensions share their app's).
    public var status: AuthorizationStatusCode
    /// Whether widget updates are authorized for this extension: it sets `NSWidgetWantsLocation`,
    /// and the app is authorized always, or when in use and the user extended that to widgets.
    public var widgetApproved: Bool

    public init(status: AuthorizationStatusCode, widgetApproved: Bool) {
        self.status = status
        self.widgetApproved = widgetApproved
    }
}

/// One `CLLocation`.
public struct LocationPayload: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double
    public var horizontalAccuracy: Double
    public var verticalAccuracy: Double
    /// Seconds since 1970.
    public var timestamp: Double

    public init(
        latitude: Double, longitude: Double, altitude: Double = 0, horizontalAccuracy: Double = 10,
        verticalAccuracy: Double = -1, timestamp: Double
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.timestamp = timestamp
    }
}

/// What the extension's `CLLocationManager` asks for.
public enum LocationRequestMode: UInt8, Sendable, Hashable, CaseIterable {
    /// `requestLocation()`: one fix.
    case once = 0
    /// `startUpdatingLocation()`.
    case start = 1
    /// `stopUpdatingLocation()`.
    case stop = 2
}

/// `CLError.Code` values the host reports (Apple's raw values).
public enum LocationErrorCode: UInt8, Sendable, Hashable, CaseIterable {
    case locationUnknown = 0
    case denied = 1
}

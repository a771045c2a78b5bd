/// The containing app's authorization to use location (Apple's raw values).
///
/// A widget extension shares its app's status; whether the widget itself may receive location
/// is `CLLocationManager.isAuthorizedForWidgetUpdates`.
public enum CLAuthorizationStatus: Int32, Sendable, Hashable, CaseIterable {
    /// The user has not chosen yet.
    case notDetermined = 0
    /// Location is restricted (parental controls, device management).
    case restricted = 1
    /// The user denied location to the app, or Location Services are off.
    case denied = 2
    /// The app may use location at any time.
    case authorizedAlways = 3
    /// The app may use location while it is in use.
    case authorizedWhenInUse = 4

    /// The old name of `authorizedAlways`.
    @available(*, deprecated, renamed: "authorizedAlways")
    public static var authorized: CLAuthorizationStatus { .authorizedAlways }
}

/// Whether the app gets precise or approximate locations.
public enum CLAccuracyAuthorization: Int, Sendable, Hashable {
    case fullAccuracy = 0
    case reducedAccuracy = 1
}

/// The error domain of Core Location errors.
public let kCLErrorDomain = "kCLErrorDomain"

/// A Core Location error, as `locationManager(_:didFailWithError:)` receives it.
///
/// ```swift
/// func locationManager(_ manager: CLLocationManager, didFailWithError error: Error) {
///     if let error = error as? CLError, error.code == .locationUnknown { … }
///     // or: if case CLError.locationUnknown = error { … }
/// }
/// ```
public struct CLError: Error, CustomNSError, Hashable, @unchecked Sendable {
    /// The error codes (Apple's raw values).
    public enum Code: Int, Sendable, Hashable {
        /// No location could be determined now (for a widget: it is not in use, or no fix arrived).
        case locationUnknown = 0
        /// Location was denied: the app is not authorized, or widget updates are not.
        case denied = 1
        case network = 2
        case headingFailure = 3
        case regionMonitoringDenied = 4
        case regionMonitoringFailure = 5
        case regionMonitoringSetupDelayed = 6
        case regionMonitoringResponseDelayed = 7
        case geocodeFoundNoResult = 8
        case geocodeFoundPartialResult = 9
        case geocodeCanceled = 10
        case deferredFailed = 11
        case deferredNotUpdatingLocation = 12
        case deferredAccuracyTooLow = 13
        case deferredDistanceFiltered = 14
        case deferredCanceled = 15
        case rangingUnavailable = 16
        case rangingFailure = 17
        case promptDeclined = 18
        case historicalLocationError = 19
    }

    /// What went wrong.
    public let code: Code
    /// Extra information; empty for the errors the SDK makes.
    public let userInfo: [String: Any]

    /// An error with `code`.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.userInfo = userInfo
    }

    public static var errorDomain: String { kCLErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { userInfo }

    public static func == (lhs: CLError, rhs: CLError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public static var locationUnknown: Code { .locationUnknown }
    public static var denied: Code { .denied }
    public static var network: Code { .network }
    public static var promptDeclined: Code { .promptDeclined }
}

extension CLError.Code {
    /// Matches an error against a code: `catch CLError.denied`, `if case CLError.locationUnknown = error`.
    public static func ~= (code: CLError.Code, error: any Error) -> Bool {
        (error as? CLError)?.code == code
    }
}

import SandglassIPC

/// The containing app's location authorization, as the user set it (Settings > Privacy >
/// Location Services). The raw values are the names `--location-auth` and scenario files take.
public enum LocationAuthorization: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The app has not asked yet ("Ask Next Time").
    case notDetermined
    /// The user said no ("Never").
    case denied
    /// Parental controls or device management forbid it.
    case restricted
    /// "While Using the App" (or "…or Widgets", when the user extended it to widgets).
    case whenInUse
    /// "Always".
    case always

    /// `CLAuthorizationStatus` on the wire.
    var statusCode: AuthorizationStatusCode {
        switch self {
        case .notDetermined: .notDetermined
        case .denied: .denied
        case .restricted: .restricted
        case .whenInUse: .authorizedWhenInUse
        case .always: .authorizedAlways
        }
    }

    public var description: String { rawValue }
}

/// Whether the user extended the app's When In Use authorization to its widgets, when the
/// system asked as a location widget was added. The raw values are `--widget-location`'s.
public enum WidgetLocationApproval: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// "While Using the App or Widgets".
    case extended
    /// The user kept the app's authorization to the app.
    case declined

    public var description: String { rawValue }
}

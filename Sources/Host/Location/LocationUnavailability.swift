import SandglassIPC

/// Why a widget's request for location was not answered with a fix (`location.unavailable`'s
/// `why`).
enum LocationUnavailability: String {
    /// The extension's Info.plist does not set `NSWidgetWantsLocation`.
    case keyMissing
    /// The app is not authorized, or only when in use and the user did not extend it to widgets.
    case notAuthorizedForWidgets
    /// Authorized, but the widgets have not been visible within the in-use window.
    case notInUse

    /// The error the extension's `CLLocationManager` reports: `denied` when it is not allowed,
    /// `locationUnknown` when it is but no location can be had now.
    var errorCode: LocationErrorCode {
        switch self {
        case .keyMissing, .notAuthorizedForWidgets: .denied
        case .notInUse: .locationUnknown
        }
    }
}

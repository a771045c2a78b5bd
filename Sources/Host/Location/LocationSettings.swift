/// The location world of a run at its start (a scenario's changes move it later): the app's
/// authorization, the widgets' approval, where the device is, and the system's windows.
///
/// ```swift
/// configuration.location.authorization = .whenInUse
/// configuration.location.widgetApproval = .declined
/// configuration.location.position = .route(try RouteFile.load("commute.gpx"))
/// ```
public struct LocationSettings: Sendable, Hashable {
    /// The containing app's authorization (default `whenInUse`).
    public var authorization: LocationAuthorization = .whenInUse
    /// Whether the user extended When In Use to widgets when one was added (default `extended`).
    public var widgetApproval: WidgetLocationApproval = .extended
    /// Where the device is (default Apple Park).
    public var position: PositionSource = .fixed(.applePark)
    /// How long after the widgets were last visible their location stays "in use" (15 min:
    /// "Widgets may use your location for up to 15 minutes after being viewed").
    public var inUseWindow: Duration = .seconds(15 * 60)
    /// The movement that counts as a significant location change (500 m, as Core Location's
    /// significant-change service).
    public var significantChangeMeters: Double = 500
    /// The horizontal accuracy the fixes carry, in metres.
    public var horizontalAccuracy: Double = 10

    public init() {}
}

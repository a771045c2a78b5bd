/// A change of the world at a moment of the run: what the user does in Settings, where they
/// go, how often they look at the widgets' page. Every field but `at` is optional.
///
/// ```swift
/// ScenarioChange(at: .seconds(86_400), authorization: .denied)   // day 2: location turned off for the app
/// ```
public struct ScenarioChange: Sendable, Hashable {
    /// Run time of the change, from the start of the run.
    public var at: Duration
    /// The containing app's new authorization.
    public var authorization: LocationAuthorization?
    /// The widgets' new approval (Settings > Privacy > Location Services > the app).
    public var widgetApproval: WidgetLocationApproval?
    /// The new visibility schedule (the widget moved to another page, or the user's habits changed).
    public var visibility: VisibilitySchedule?
    /// The new position or route.
    public var position: PositionSource?
    /// Why, in words, for the log.
    public var note: String?

    public init(
        at: Duration, authorization: LocationAuthorization? = nil, widgetApproval: WidgetLocationApproval? = nil,
        visibility: VisibilitySchedule? = nil, position: PositionSource? = nil, note: String? = nil
    ) {
        self.at = at
        self.authorization = authorization
        self.widgetApproval = widgetApproval
        self.visibility = visibility
        self.position = position
        self.note = note
    }
}

import ArgumentParser
import SandglassHost

/// The location and visibility options of `run`: the starting state (a scenario may change it
/// during the run). Each overrides the scenario's value when given.
struct LocationOptions: ParsableArguments {
    @Option(
        name: .customLong("location-auth"),
        help: "The containing app's location authorization (default whenInUse).")
    var authorization: LocationAuthorizationChoice?

    @Option(
        name: .customLong("widget-location"),
        help: "Whether the user extended When In Use to the widgets when one was added (default extended).")
    var widgetLocation: WidgetLocationChoice?

    @Option(help: "The device's position, LAT,LON in degrees (default Apple Park, 37.3349,-122.0090). Example: --position 52.52,13.405")
    var position: PositionArgument?

    @Option(
        help: "A route the device follows: a GPX file (trkpt with time) or CSV (seconds,latitude,longitude). Example: --route commute.gpx")
    var route: String?

    @Option(help: "When the widgets are on screen; often: viewed every 30 min for 2 min, seldom: every 8 h for 1 min (default always).")
    var visibility: VisibilityChoice?

    @Option(
        name: .customLong("in-use-window"), parsing: .unconditional,
        help: "How long location stays in use after the widgets were last visible (default 15m).")
    var inUseWindow: DurationArgument?

    func validate() throws {
        if position != nil && route != nil { throw ValidationError("give --position or --route, not both") }
    }

    /// Applies the options that were given over `configuration`.
    func apply(to configuration: inout HostConfiguration) throws {
        if let authorization { configuration.location.authorization = authorization.value }
        if let widgetLocation { configuration.location.widgetApproval = widgetLocation.value }
        if let position { configuration.location.position = .fixed(position.coordinate) }
        if let route {
            do {
                configuration.location.position = .route(try RouteFile.load(route))
            } catch {
                throw BadInput("--route: \(error)")
            }
        }
        if let visibility { configuration.visibility = visibility.value }
        if let inUseWindow { configuration.location.inUseWindow = inUseWindow.duration }
    }
}

/// `--location-auth`.
struct LocationAuthorizationChoice: ExpressibleByArgument {
    let value: LocationAuthorization
    init?(argument: String) {
        guard let value = LocationAuthorization(rawValue: argument) else { return nil }
        self.value = value
    }
    static var allValueStrings: [String] { LocationAuthorization.allCases.map(\.rawValue) }
}

/// `--widget-location`.
struct WidgetLocationChoice: ExpressibleByArgument {
    let value: WidgetLocationApproval
    init?(argument: String) {
        guard let value = WidgetLocationApproval(rawValue: argument) else { return nil }
        self.value = value
    }
    static var allValueStrings: [String] { WidgetLocationApproval.allCases.map(\.rawValue) }
}

/// `--visibility`.
struct VisibilityChoice: ExpressibleByArgument {
    let value: VisibilitySchedule
    init?(argument: String) {
        guard let value = VisibilitySchedule(name: argument) else { return nil }
        self.value = value
    }
    static var allValueStrings: [String] { VisibilitySchedule.names }
}

/// `--position LAT,LON`.
struct PositionArgument: ExpressibleByArgument {
    let coordinate: GeoCoordinate
    init?(argument: String) {
        guard let coordinate = GeoCoordinate(text: argument) else { return nil }
        self.coordinate = coordinate
    }
}

import SandglassIPC

/// A run's world written down: the location state at the start (the app's authorization, the
/// widgets' approval, position or route, visibility), timed changes, and what the run must show.
/// `sandglass run APP.app --scenario FILE` runs one; ``load(_:)`` reads one for a test.
///
/// ```json
/// {
///   "description": "The user declines to extend location to widgets.",
///   "duration": "3d", "clock": "virtual",
///   "authorization": "whenInUse", "widgetLocation": "declined",
///   "visibility": "often", "position": "37.3349,-122.0090",
///   "changes": [{"at": "1d", "widgetLocation": "extended", "note": "Settings > Privacy"}],
///   "expect": [{"event": "location.unavailable", "where": {"why": "notAuthorizedForWidgets"}, "atLeast": 1, "until": "1d"}]
/// }
/// ```
///
/// Keys (all optional): `description`, `app` (the example bundle it is written for),
/// `duration`, `clock` (`real`|`virtual`), `authorization`
/// (`notDetermined`|`denied`|`restricted`|`whenInUse`|`always`), `widgetLocation`
/// (`extended`|`declined`), `visibility` (`always`|`never`|`often`|`seldom` or
/// `{"every": "1h", "for": "1m"}`), `position` (`"LAT,LON"` or `{"latitude":…, "longitude":…}`),
/// `route` (a GPX or CSV file relative to the scenario, or `{"file":…, "repeat": true, "spacing": "5m"}`),
/// `inUseWindow`, `significantChangeMeters`, `changes` (each with `at` and any of
/// `authorization`, `widgetLocation`, `visibility`, `position`, `route`, `note`), `expect`
/// (each with `event`, `where`, `atLeast`, `atMost`, `from`, `until`), `configurations` (the
/// intent parameters of configurable widgets by widget name, e.g. `{"Hero": {"hero": "spider"}}`,
/// see ``HostConfiguration/widgetConfigurations``). Durations: `500ms`,
/// `30s`, `15m`, `2h`, `3d`. An unknown key is an error, so a misspelt key is not silently ignored.
public struct Scenario: Sendable {
    /// The file it was read from.
    public var path: String?
    public var description: String = ""
    /// The example bundle it is written for (`Nearby.app`), for people and tests.
    public var app: String?
    /// How long to run, when the command line does not say.
    public var duration: Duration?
    /// The clock, when the command line does not say.
    public var clock: ClockMode?
    /// The location state at the start.
    public var location = LocationSettings()
    /// When the widgets are on screen at the start.
    public var visibility: VisibilitySchedule = .always
    /// Timed changes, in order of `at`.
    public var changes: [ScenarioChange] = []
    /// What the run must show.
    public var expectations: [ScenarioExpectation] = []
    /// Widget configurations (JSON objects) by widget name.
    public var configurations: [String: String] = [:]

    public init() {}

    /// Reads and validates the scenario at `path`.
    public static func load(_ path: String) throws(ScenarioError) -> Scenario {
        try ScenarioReader.read(path)
    }

    /// Sets the configuration's location, visibility, changes and widget configurations from
    /// the scenario (and its clock, when it names one).
    public func apply(to configuration: inout HostConfiguration) {
        configuration.location = location
        configuration.visibility = visibility
        configuration.changes = changes
        configuration.widgetConfigurations.merge(configurations) { _, scenario in scenario }
        if let clock { configuration.clock = clock }
    }

    /// The expectations `events` do not meet, as sentences (empty: all met).
    public func failures(in events: [HostEvent]) -> [String] {
        expectations.compactMap { $0.failure(in: events) }
    }
}

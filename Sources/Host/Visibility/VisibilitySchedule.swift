/// When the widgets are on screen: the home-screen page (or Today view) they are on, viewed by
/// the user on a schedule. Visibility decides when a widget's location is "in use", when a
/// significant-location-change reload is delivered, and when Today extensions update.
///
/// ```swift
/// configuration.visibility = .often                                          // every 30 min, for 2 min
/// configuration.visibility = .periodic(every: .seconds(3600), for: .seconds(60))
/// ```
///
/// A periodic schedule starts with a view when it takes effect (the user has just added the
/// widget, or just changed the page it is on).
public enum VisibilitySchedule: Sendable, Hashable, CustomStringConvertible {
    /// Always on screen.
    case always
    /// On a page the user never looks at.
    case never
    /// Viewed every `every`, for `for` each time.
    case periodic(every: Duration, for: Duration)

    /// A frequently viewed page: every 30 minutes, for 2 minutes.
    public static let often = VisibilitySchedule.periodic(every: .seconds(30 * 60), for: .seconds(120))
    /// An infrequently viewed page: every 8 hours, for 1 minute.
    public static let seldom = VisibilitySchedule.periodic(every: .seconds(8 * 3600), for: .seconds(60))

    /// The names the command line and scenario files accept.
    public static let names = ["always", "never", "often", "seldom"]

    /// `always`, `never`, `often` or `seldom`.
    public init?(name: String) {
        switch name {
        case "always": self = .always
        case "never": self = .never
        case "often": self = .often
        case "seldom": self = .seldom
        default: return nil
        }
    }

    /// The schedule's name, or `every 1h for 1m`.
    public var description: String {
        switch self {
        case .always: "always"
        case .never: "never"
        case .often: "often"
        case .seldom: "seldom"
        case .periodic(let every, let duration): "every \(DurationText.describe(every)) for \(DurationText.describe(duration))"
        }
    }

    /// Whether the widgets are on screen `elapsed` nanoseconds after the schedule took effect.
    func isVisible(at elapsed: UInt64) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .periodic(let every, let duration):
            let period = every.nanoseconds, shown = duration.nanoseconds
            guard period > 0 else { return true }
            return elapsed % period < shown
        }
    }

    /// When (nanoseconds after the schedule took effect) visibility next changes after
    /// `elapsed`; `nil` when it never does.
    func nextChange(after elapsed: UInt64) -> UInt64? {
        switch self {
        case .always, .never: return nil
        case .periodic(let every, let duration):
            let period = every.nanoseconds, shown = min(duration.nanoseconds, period)
            guard period > 0, shown > 0, shown < period else { return nil }
            let start = elapsed - elapsed % period
            return elapsed % period < shown ? start + shown : start + period
        }
    }
}

extension VisibilitySchedule {
    /// How often this schedule shows the widgets, as the reload scheduler counts it (the date it
    /// chooses for single-entry `.atEnd` timelines): hourly or more often is `often`.
    public var widgetVisibility: WidgetVisibility {
        switch self {
        case .always: .always
        case .never: .never
        case .periodic(let every, _): every <= .seconds(3600) ? .often : .seldom
        }
    }
}

// The ten plans of the fleet: one widget kind each, with the reload policy a real widget of
// that sort would ask for — some modest, some greedy — so that a host with many of them has
// budgets to enforce.

import WidgetKit

/// A widget's plan: its kind, its entries and the policy it asks for.
protocol FleetPlan {
    static var kind: String { get }
    /// Entry offsets from now, in minutes.
    static var entryMinutes: [Int] { get }
    /// The policy, given the time of the request.
    static func policy(now: Date) -> TimelineReloadPolicy
    /// Whether getTimeline asks WidgetCenter for another reload of its own kind right away.
    static var asksAgain: Bool { get }
}

extension FleetPlan {
    static var entryMinutes: [Int] { [0] }
    static var asksAgain: Bool { false }
}

/// Asks to be reloaded a minute later, every time (clamped to the 5-minute minimum; far over budget).
enum Eager: FleetPlan {
    static let kind = "Eager"
    static func policy(now: Date) -> TimelineReloadPolicy { .after(now.addingTimeInterval(60)) }
}

/// A reload every quarter of an hour: 96 a day, over a budget of 60.
enum Quarterly: FleetPlan {
    static let kind = "Quarterly"
    static func policy(now: Date) -> TimelineReloadPolicy { .after(now.addingTimeInterval(15 * 60)) }
}

/// A reload every hour.
enum Hourly: FleetPlan {
    static let kind = "Hourly"
    static func policy(now: Date) -> TimelineReloadPolicy { .after(now.addingTimeInterval(3600)) }
}

/// Six entries ten minutes apart, then `.atEnd`.
enum Schedule: FleetPlan {
    static let kind = "Schedule"
    static let entryMinutes = [0, 10, 20, 30, 40, 50]
    static func policy(now: Date) -> TimelineReloadPolicy { .atEnd }
}

/// One entry and `.atEnd`: the system chooses when to reload.
enum Single: FleetPlan {
    static let kind = "Single"
    static func policy(now: Date) -> TimelineReloadPolicy { .atEnd }
}

/// Every six hours.
enum Quarterday: FleetPlan {
    static let kind = "Quarterday"
    static func policy(now: Date) -> TimelineReloadPolicy { .after(now.addingTimeInterval(6 * 3600)) }
}

/// `.never`, and asks WidgetCenter for another reload at once, every time: greedy.
enum Greedy: FleetPlan {
    static let kind = "Greedy"
    static func policy(now: Date) -> TimelineReloadPolicy { .never }
    static let asksAgain = true
}

/// Asks for a date already past (clamped to the 5-minute minimum).
enum Stale: FleetPlan {
    static let kind = "Stale"
    static func policy(now: Date) -> TimelineReloadPolicy { .after(now.addingTimeInterval(-600)) }
}

/// Three entries twenty minutes apart, then `.atEnd`.
enum Relay: FleetPlan {
    static let kind = "Relay"
    static let entryMinutes = [0, 20, 40]
    static func policy(now: Date) -> TimelineReloadPolicy { .atEnd }
}

/// `.never`: only its app reloads it.
enum AppDriven: FleetPlan {
    static let kind = "AppDriven"
    static func policy(now: Date) -> TimelineReloadPolicy { .never }
}

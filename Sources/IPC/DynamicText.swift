/// A text that shows a date relative to the moment it is drawn — `Text(date, style: .relative)`,
/// `.offset`, `.timer`, `Text(timerInterval:)` — which a widget shows changing without a new
/// entry. The SDK resolves it at the entry's date; the report resolves it again at each instant
/// it draws. The formats follow Apple's "Displaying dynamic dates in widgets": `.relative`
/// "11 min, 14 sec", `.offset` "-11 minutes", `.timer` "11:14".
public struct DynamicText: Sendable, Hashable {
    public enum Style: UInt8, Sendable, Hashable {
        /// Two units of the time to or since the date: `2 hr, 23 min`.
        case relative = 0
        /// The offset from the date in its largest unit, signed: `+2 hours`.
        case offset = 1
        /// A clock of the time to or since the date: `11:14`, `1:02:03`.
        case timer = 2
        /// `Text(timerInterval:pauseTime:countsDown:showsHours:)`.
        case timerInterval = 3
    }

    public var style: Style
    /// Seconds since 1970: the date, or the interval's start.
    public var date: Double
    /// The interval's end (``Style/timerInterval``), else equal to `date`.
    public var end: Double
    public var countsDown: Bool
    public var showsHours: Bool
    /// Where a paused timer stopped, seconds since 1970.
    public var pauseTime: Double?

    public init(
        style: Style, date: Double, end: Double? = nil, countsDown: Bool = true, showsHours: Bool = true,
        pauseTime: Double? = nil
    ) {
        self.style = style
        self.date = date
        self.end = end ?? date
        self.countsDown = countsDown
        self.showsHours = showsHours
        self.pauseTime = pauseTime
    }

    /// The text at `now` (seconds since 1970).
    public func text(at now: Double) -> String {
        switch style {
        case .relative:
            return Self.relative(Self.wholeSeconds(abs(date - now)))
        case .offset:
            let seconds = Self.wholeSeconds(abs(now - date))
            return (now >= date ? "+" : "-") + Self.largestUnit(seconds)
        case .timer:
            return Self.clock(Self.wholeSeconds(abs(now - date)), showsHours: true)
        case .timerInterval:
            return Self.clock(Self.wholeSeconds(intervalSeconds(at: now)), showsHours: showsHours)
        }
    }

    /// For ``Style/timerInterval``: the seconds left (counting down) or gone (counting up) at `now`.
    public func intervalSeconds(at now: Double) -> Double {
        let t = pauseTime ?? now
        let length = max(0, end - date)
        return countsDown ? min(max(end - t, 0), length) : min(max(t - date, 0), length)
    }

    /// For ``Style/timerInterval``: the part of the interval gone at `now`, 0…1.
    public func fraction(at now: Double) -> Double {
        let length = end - date
        guard length > 0 else { return 1 }
        let t = pauseTime ?? now
        return min(max((t - date) / length, 0), 1)
    }

    private static func wholeSeconds(_ value: Double) -> Int {
        value.isFinite ? Int(min(value, 1e12)) : 0
    }

    static func relative(_ s: Int) -> String {
        let days = s / 86_400, hours = s % 86_400 / 3600, minutes = s % 3600 / 60, seconds = s % 60
        func unit(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
        if days > 0 { return hours > 0 ? "\(unit(days, "day", "days")), \(hours) hr" : unit(days, "day", "days") }
        if hours > 0 { return minutes > 0 ? "\(hours) hr, \(minutes) min" : "\(hours) hr" }
        if minutes > 0 { return seconds > 0 ? "\(minutes) min, \(seconds) sec" : "\(minutes) min" }
        return "\(seconds) sec"
    }

    static func largestUnit(_ s: Int) -> String {
        func unit(_ n: Int, _ name: String) -> String { "\(n) \(name)\(n == 1 ? "" : "s")" }
        if s >= 86_400 { return unit(s / 86_400, "day") }
        if s >= 3600 { return unit(s / 3600, "hour") }
        if s >= 60 { return unit(s / 60, "minute") }
        return unit(s, "second")
    }

    static func clock(_ s: Int, showsHours: Bool) -> String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        if showsHours && s >= 3600 {
            return "\(s / 3600):\(two(s % 3600 / 60)):\(two(s % 60))"
        }
        return "\(s / 60):\(two(s % 60))"
    }
}

/// Something a run must show: a number of events of one name, with given field values, within
/// a window of run time. A scenario's expectations decide `sandglass run`'s exit status.
///
/// ```json
/// {"event": "location.unavailable", "where": {"why": "notAuthorizedForWidgets"}, "atLeast": 1, "from": "1d", "until": "2d"}
/// ```
public struct ScenarioExpectation: Sendable, Hashable, CustomStringConvertible {
    /// The event name.
    public var event: String
    /// Fields that must have these values (strings compare with strings; numbers and Booleans
    /// with their JSON text, e.g. `"true"`). A key may be a path into the event's JSON:
    /// `entries.0.status` is the `status` of the first entry of a `timeline` event.
    public var fields: [String: String]
    public var atLeast: Int?
    public var atMost: Int?
    /// Only events at or after this run time count.
    public var from: Duration?
    /// Only events before this run time count.
    public var until: Duration?

    public init(
        event: String, fields: [String: String] = [:], atLeast: Int? = nil, atMost: Int? = nil,
        from: Duration? = nil, until: Duration? = nil
    ) {
        self.event = event
        self.fields = fields
        self.atLeast = atLeast
        self.atMost = atMost
        self.from = from
        self.until = until
    }

    /// How many of `events` match.
    public func count(in events: [HostEvent]) -> Int {
        let lower = from.map { $0.milliseconds } ?? -.infinity
        let upper = until.map { $0.milliseconds } ?? .infinity
        return events.filter { event in
            event.name == self.event && event.t >= lower && event.t < upper
                && fields.allSatisfy { key, value in Self.value(at: key, in: event).map { $0.stringValue ?? $0.serialized } == value }
        }.count
    }

    /// The value at a dotted path (`entries.0.status`) of `event`.
    static func value(at path: String, in event: HostEvent) -> JSONValue? {
        if let direct = event[path] { return direct }
        let components = path.split(separator: ".").map(String.init)
        guard let first = components.first, var current = event[first]?.resolved else { return nil }
        for component in components.dropFirst() {
            switch current {
            case .array(let values):
                guard let index = Int(component), values.indices.contains(index) else { return nil }
                current = values[index].resolved
            case .object(let fields):
                guard let next = fields.first(where: { $0.0 == component })?.1 else { return nil }
                current = next.resolved
            default:
                return nil
            }
        }
        return current
    }

    /// `nil` when `events` meet the expectation, else what went wrong.
    public func failure(in events: [HostEvent]) -> String? {
        let n = count(in: events)
        if let atLeast, n < atLeast { return "\(self): saw \(n)" }
        if let atMost, n > atMost { return "\(self): saw \(n)" }
        return nil
    }

    /// `at least 1 location.delivered (why=notInUse) from 1d until 2d`.
    public var description: String {
        var bound: [String] = []
        if let atLeast { bound.append("at least \(atLeast)") }
        if let atMost { bound.append("at most \(atMost)") }
        var text = "\(bound.isEmpty ? "any number of" : bound.joined(separator: " and ")) \(event)"
        if !fields.isEmpty {
            text += " (" + fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + ")"
        }
        if let from { text += " from \(DurationText.describe(from))" }
        if let until { text += " until \(DurationText.describe(until))" }
        return text
    }
}

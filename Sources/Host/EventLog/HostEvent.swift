/// One line of the event log: `t` (ms since the run started, on the run's clock), the event name,
/// and its fields — `bundle`, `pid`, `activation` where relevant, then the event's own.
///
/// Names are a contract, never renamed: ``EventName`` lists them and <doc:EventLog> documents
/// each with its fields. ``kind`` is the name as an ``EventName``.
public struct HostEvent: Sendable, Hashable, CustomStringConvertible {
    /// Milliseconds since the run started, on the run's clock (virtual or real).
    public let t: Double
    /// The event name.
    public let name: String
    /// The fields after `t` and `event`, in order.
    public let fields: [(String, JSONValue)]

    public init(t: Double, name: String, fields: [(String, JSONValue)]) {
        self.t = t
        self.name = name
        self.fields = fields
    }

    public static func == (lhs: HostEvent, rhs: HostEvent) -> Bool { lhs.jsonLine == rhs.jsonLine }
    public func hash(into hasher: inout Hasher) { hasher.combine(jsonLine) }

    /// About the size of its JSON line in bytes, without writing it (what a bounded history counts).
    var approximateBytes: Int {
        fields.reduce(name.utf8.count + 24) { $0 + $1.0.utf8.count + 4 + $1.1.approximateBytes }
    }

    /// The value of field `key`.
    public subscript(key: String) -> JSONValue? {
        fields.first { $0.0 == key }?.1
    }

    /// Field `key` as a string.
    public func string(_ key: String) -> String? { self[key]?.stringValue }
    /// Field `key` as an integer.
    public func int(_ key: String) -> Int64? { self[key]?.intValue }
    /// Field `key` as a number.
    public func double(_ key: String) -> Double? { self[key]?.doubleValue }

    /// The extension's bundle identifier, when the event concerns one.
    public var bundle: String? { string("bundle") }
    /// The process id, when the event concerns a process.
    public var pid: Int32? { int("pid").flatMap { Int32(exactly: $0) } }

    /// The JSON line (without the newline).
    public var jsonLine: String {
        var out = "{\"t\":"
        out += String(format3(t))
        out += ",\"event\":"
        JSONValue.writeString(name, to: &out)
        for (key, value) in fields {
            out += ","
            JSONValue.writeString(key, to: &out)
            out += ":"
            value.write(to: &out)
        }
        out += "}"
        return out
    }

    public var description: String { jsonLine }
}

/// `t` with at most three decimals (microseconds), without a trailing `.0`.
package func format3(_ value: Double) -> String {
    let value = value.isFinite ? min(max(value, -1e15), 1e15) : 0
    let micro = (value * 1000).rounded()
    let whole = Int64(micro / 1000)
    let frac = Int64(abs(micro.truncatingRemainder(dividingBy: 1000)))
    if frac == 0 { return String(whole) }
    var f = String(frac)
    f = String(repeating: "0", count: 3 - f.count) + f
    while f.hasSuffix("0") { f.removeLast() }
    return (micro < 0 && whole == 0 ? "-" : "") + String(whole) + "." + f
}

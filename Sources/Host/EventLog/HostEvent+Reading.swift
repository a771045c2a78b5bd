import Foundation

/// Reading an event log back (`--log F.jsonl`), for `sandglass explain` and users' own checks.
extension HostEvent {
    /// The event of one JSON line, `nil` when the line is not a JSON object with `t` and `event`.
    public init?(jsonLine line: String) {
        self.init(jsonLine: Data(line.utf8))
    }

    /// The event of one JSON line's bytes: `nil` unless it is an object with `event` and a `t`
    /// of milliseconds since the run's start, within the 100 years a run clock reaches.
    public init?(jsonLine line: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
            let name = object["event"] as? String, let t = (object["t"] as? NSNumber)?.doubleValue,
            t >= 0, t <= Double(RunClock.farFuture) / 1e6
        else { return nil }
        let fields = object.filter { $0.key != "t" && $0.key != "event" }
            .sorted { $0.key < $1.key }
            .map { ($0.key, JSONValue(foundation: $0.value)) }
        self.init(t: t, name: name, fields: fields)
    }

    /// Every event of the JSON-lines log at `path`, in order.
    ///
    /// - Throws: ``EventLogReadError`` naming the file and the first line that is not an event.
    public static func read(logAt path: String) throws -> [HostEvent] {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw EventLogReadError(description: "cannot read the event log \(path): \(error.localizedDescription)")
        }
        var events: [HostEvent] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            guard let event = HostEvent(jsonLine: String(line)) else {
                throw EventLogReadError(
                    description:
                        "\(path):\(index + 1) is not an event of a Sandglass log (a JSON object with \"event\" and \"t\", milliseconds since the run's start)"
                )
            }
            events.append(event)
        }
        return events
    }
}

/// An event log could not be read; the description names the file and line.
public struct EventLogReadError: Error, CustomStringConvertible {
    public let description: String
}

import Foundation
import SandglassHost

/// One run read back from an event log (`--log F.jsonl`): its events from `run.start` on, and
/// where they came from. A report or a trace is made from one or more of these — the shards of a
/// campaign, say.
///
/// ```swift
/// let runs = try RunLog.read(["shard-0.jsonl", "shard-1.jsonl"])
/// try HTMLReport(runs: runs).write(to: "campaign.html")
/// ```
public struct RunLog: Sendable {
    /// The file the events were read from (for runs made in memory, a name given by the caller).
    public var source: String
    /// The events, in the order they were recorded.
    public var events: [HostEvent]

    /// A run made of `events` (for example those of a host that is still in memory).
    public init(source: String, events: [HostEvent]) {
        self.source = source
        self.events = events
    }

    /// `run.start`'s `epoch`: the run clock's start, seconds since 1970 (0 when the log has none).
    public var epoch: Double {
        events.first { $0.kind == .runStart }?.double("epoch") ?? 0
    }

    /// `real` or `virtual`, from `run.start`.
    public var clock: String {
        events.first { $0.kind == .runStart }?.string("clock") ?? "real"
    }

    /// The sandbox's layers and what each enforced (`run.start`'s `sandbox`: `seccomp`,
    /// `landlock`, `cgroup`, `memory`, `rlimits`, `namespaces`), in the order the log gives them.
    public var sandbox: [(layer: String, state: String)] {
        events.first { $0.kind == .runStart }.map(Self.sandbox(in:)) ?? []
    }

    /// The layers the run went without (``SandboxGap``): `off`, `none`, or `unavailable` and why.
    public var sandboxGaps: [(layer: String, state: String)] {
        sandbox.filter { SandboxGap.isGap($0.state) }
    }

    /// The layers a `run.start` event names, and their states.
    static func sandbox(in runStart: HostEvent) -> [(layer: String, state: String)] {
        guard case .object(let layers)? = runStart["sandbox"] else { return [] }
        return layers.map { ($0.0, $0.1.stringValue ?? $0.1.serialized) }
    }

    /// The shard that made the run (`run.start`'s `shard`, such as `"3/8"`), when it says.
    public var shard: String? {
        events.first { $0.kind == .runStart }?.string("shard")
    }

    /// The run's length on its clock: the `t` of its last event.
    public var durationMs: Double {
        events.last?.t ?? 0
    }

    /// A short name: the shard when known, else the file name.
    public var label: String {
        let file = URL(fileURLWithPath: source).lastPathComponent
        return shard.map { "shard \($0) · \(file)" } ?? file
    }

    /// The runs in the JSON-lines logs at `paths`, in order. A file holding several runs (one
    /// `run.start` after another) gives one ``RunLog`` for each.
    ///
    /// - Throws: ``RunLogError`` naming the file and line that is not an event.
    public static func read(_ paths: [String]) throws(RunLogError) -> [RunLog] {
        var runs: [RunLog] = []
        for path in paths { runs += try read(path) }
        return runs
    }

    /// The runs in the JSON-lines log at `path`.
    public static func read(_ path: String) throws(RunLogError) -> [RunLog] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw RunLogError(description: "cannot read the event log \(path): \((error as NSError).localizedDescription)")
        }
        var runs: [RunLog] = []
        var current: [HostEvent] = []
        var lineNumber = 0
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) { continue }
            guard let event = parse(Data(line)) else {
                throw RunLogError(
                    description:
                        "\(path):\(lineNumber) is not an event of a Sandglass log (a JSON object with \"event\" and \"t\", milliseconds since the run's start)"
                )
            }
            if event.kind == .runStart && !current.isEmpty {
                runs.append(RunLog(source: path, events: current))
                current = []
            }
            current.append(event)
        }
        if !current.isEmpty { runs.append(RunLog(source: path, events: current)) }
        if runs.isEmpty {
            throw RunLogError(description: "\(path) holds no events: is it the file given to --log?")
        }
        return runs
    }

    /// The event of one JSON line, `nil` when the line is not an object with `t` and `event`.
    static func parse(_ line: Data) -> HostEvent? {
        HostEvent(jsonLine: line)
    }
}

/// An event log could not be read; the description names the file (and line).
public struct RunLogError: Error, CustomStringConvertible {
    /// What went wrong, for a person.
    public let description: String
}

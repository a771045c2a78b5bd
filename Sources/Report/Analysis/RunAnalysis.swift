import Foundation
import SandglassHost
import SandglassIPC

/// What a run's events say, arranged for a report: each extension's processes with their
/// activations and kills, the downloads and the relaunches they caused, the reload ledger, each
/// widget's timelines, and the verdicts. Events it does not know are counted, never dropped.
public struct RunAnalysis: Sendable {
    /// One extension process, from `spawned` to `exited`.
    public struct Process: Sendable {
        public var pid: Int32
        public var bundle: String
        public var launch: Int
        public var spawnedAt: Double
        /// `nil` while the log shows it still running.
        public var exitedAt: Double?
        /// `SIGKILL`, `status 0`, …
        public var exit: String?
        public var killReason: String?
        public var killDetail: String?
        public var killedAt: Double?
        public var cpuMs: Int64?
        public var peakRSSKiB: Int64?
        /// The background session whose events it was launched for (a relaunch by identifier).
        public var relaunchSession: String?
    }

    /// One activation, from `activation.start` to `activation.end`.
    public struct Activation: Sendable {
        public var id: Int64
        public var pid: Int32
        public var bundle: String
        public var kind: String
        public var widget: String?
        public var family: String?
        public var session: String?
        public var start: Double
        /// `nil` when the log ends before the activation did.
        public var end: Double?
        /// ok, failed, killed (or nil when unfinished).
        public var outcome: String?
        public var reason: String?
        public var error: String?
        public var ms: Double?
        /// Row within its process when activations overlap (0 first).
        public var lane = 0

        /// Tooltip text.
        public var summary: String {
            var text = kind
            if let widget { text += " for \(widget)" + (family.map { " (\($0))" } ?? "") }
            if let session { text += " · session \(session)" }
            text += " · pid \(pid)"
            if let outcome { text += " · \(outcome)" }
            if let reason { text += " (\(reason))" }
            if let error { text += ": \(error)" }
            if let ms { text += " · " + RunAnalysis.formatMs(ms) }
            return text
        }
    }

    /// A background transfer, from `download.started` (or `task.created`) to its end.
    public struct Download: Sendable {
        public var bundle: String
        public var session: String
        public var taskId: Int64
        public var start: Double
        public var end: Double?
        /// finished, failed, cancelled (nil while running).
        public var result: String?
        public var status: Int64?
        public var bytes: Int64?
        public var attempts = 1
        public var error: String?
        /// The pid relaunched (or woken) for its events, when the log shows one.
        public var deliveredTo: Int32?
        /// Row within the extension's download lane when transfers overlap.
        public var lane = 0
    }

    /// A `killed` event.
    public struct Kill: Sendable {
        public var t: Double
        public var pid: Int32?
        public var bundle: String
        public var reason: String
        public var detail: String?
    }

    /// A link from a download to the process that was given its events.
    public struct Relaunch: Sendable {
        /// Index into ``downloads``.
        public var download: Int
        /// Index into ``processes``.
        public var process: Int
        /// When the events were handed over (the `backgroundEvents` activation's start).
        public var at: Double
        /// Whether a process was spawned for it (false: the extension was already running).
        public var spawned: Bool
    }

    /// One entry of a recorded timeline.
    public struct Entry: Sendable {
        /// The entry's date, ISO 8601, as recorded.
        public var date: String?
        /// Its date on the run clock (ms), when the date parses.
        public var t: Double?
        /// The widget's text rendering of the entry, when it gives one.
        public var text: String?
        /// The entry as the extension encoded it (compact JSON).
        public var json: String
        /// The entry's view as the log records it (read with ``view``).
        public var viewJSON: JSONValue?

        /// The entry's view, when the widget has one.
        public var view: ViewRendering? { viewJSON.flatMap(ViewRendering.init(json:)) }

        /// The entry's date in seconds since 1970.
        public var seconds: Double? { date.flatMap(ISO8601Instant.seconds) }
    }

    /// A `timeline` event.
    public struct Timeline: Sendable {
        public var t: Double
        public var policy: String
        public var nextReloadDate: String?
        public var entries: [Entry]
    }

    /// One widget on the (simulated) home screen and the timelines it was given.
    public struct Widget: Sendable {
        public var bundle: String
        public var kind: String
        public var family: String
        public var timelines: [Timeline] = []
        /// The latest placeholder entry of the widget, with its (redacted) view.
        public var placeholder: Entry?

        /// `Leaderboard · systemSmall`
        public var name: String { "\(kind) · \(family)" }

        /// `leaderboard.widget · Leaderboard`: the bundle identifier's last two parts and the kind.
        public var shortName: String {
            "\(bundle.split(separator: ".").suffix(2).joined(separator: ".")) · \(kind)"
        }
    }

    /// A line of the reload ledger: `reload.requested`, `reload.denied`, `reload.failed`, … .
    public struct LedgerRow: Sendable {
        public var t: Double
        /// The event name without `reload.`: requested, denied, failed, coalesced, ….
        public var decision: String
        public var bundle: String
        public var kind: String
        public var family: String?
        public var reason: String?
        public var detail: String?
    }

    /// Something a person should look at.
    public struct Verdict: Sendable {
        public enum Severity: String, Sendable, Comparable {
            case failure, warning

            public static func < (a: Severity, b: Severity) -> Bool { a == .failure && b == .warning }
        }

        public var t: Double
        public var severity: Severity
        /// The event it comes from.
        public var event: String
        /// A short title: the invariant, the verdict, the kill reason.
        public var title: String
        public var bundle: String?
        public var detail: String
    }

    /// The run this is the analysis of.
    public let run: RunLog
    public private(set) var processes: [Process] = []
    public private(set) var activations: [Activation] = []
    public private(set) var downloads: [Download] = []
    public private(set) var kills: [Kill] = []
    public private(set) var relaunches: [Relaunch] = []
    public private(set) var widgets: [Widget] = []
    public private(set) var ledger: [LedgerRow] = []
    public private(set) var verdicts: [Verdict] = []
    /// Events no section shows, by name, with the first of each.
    public private(set) var otherEvents: [(name: String, count: Int, first: HostEvent)] = []
    /// Every extension that appears in the run, in order of appearance.
    public private(set) var bundles: [String] = []
    /// The counts of `run.end`, recomputed from the events.
    public let summary: RunSummary

    /// Whether nothing failed: no invariant violated, no verdict of severity failure.
    public var passed: Bool { !verdicts.contains { $0.severity == .failure } }

    /// The analysis of `run`.
    public init(_ run: RunLog) {
        self.run = run
        summary = RunSummary(events: run.events)
        var builder = Builder(epoch: run.epoch)
        for event in run.events { builder.add(event) }
        builder.finish()
        processes = builder.processes
        activations = builder.activations
        downloads = builder.downloads
        kills = builder.kills
        relaunches = builder.relaunches
        widgets = builder.widgetOrder.compactMap { builder.widgets[$0] }
        ledger = builder.ledger
        verdicts = builder.verdicts.sorted { ($0.severity, $0.t) < ($1.severity, $1.t) }
        otherEvents = builder.otherOrder.map { name in (name, builder.otherCounts[name]!, builder.otherFirst[name]!) }
        bundles = builder.bundleOrder
    }

    /// `0.5 ms`, `12.3 ms`, `1.24 s`, `3 min 20 s`, `2 h 5 min`, `1 d 3 h`.
    public static func formatMs(_ ms: Double) -> String {
        // A duration from a log (edited, perhaps): what is not finite or past 10^15 ms is not drawn as one.
        let ms = ms.isFinite ? min(max(ms, -1e15), 1e15) : 0
        if ms < 10 { return String(format: "%.2f ms", ms) }
        if ms < 1000 { return String(format: "%.1f ms", ms) }
        if ms < 60_000 { return String(format: "%.2f s", ms / 1000) }
        let s = Int(ms / 1000)
        if s < 3600 { return "\(s / 60) min \(s % 60) s" }
        if s < 86_400 { return "\(s / 3600) h \((s % 3600) / 60) min" }
        return "\(s / 86_400) d \((s % 86_400) / 3600) h"
    }
}

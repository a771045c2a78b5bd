import Foundation
import SandglassIPC

@testable import SandglassHost

/// A small but complete run, written as the host writes it: two extensions, a budget kill, a
/// download that relaunches its extension by identifier, reloads, verdicts and an event kind the
/// report does not know.
enum ReportFixture {
    static let epoch = 1_795_000_000.0

    static func iso(_ ms: Double) -> String {
        Date(timeIntervalSince1970: epoch + ms / 1000)
            .formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    static func events(shard: String? = nil) -> [HostEvent] {
        let lb = "com.example.leaderboard.widget", dl = "com.example.downloader.widget"
        var runStart: [(String, JSONValue)] = [("epoch", .double(epoch)), ("clock", "real"), ("pid", 4000)]
        if let shard { runStart.append(("shard", .string(shard))) }
        let e: [(Double, String, [(String, JSONValue)])] = [
            (0, "run.start", runStart),
            (1, "installed", [("app", "com.example.leaderboard"), ("path", "/tmp/Leaderboard.app")]),
            (2, "spawned", [("bundle", .string(lb)), ("pid", 101), ("launch", 1), ("ms", 0.9)]),
            (3, "spawned", [("bundle", .string(dl)), ("pid", 201), ("launch", 1), ("ms", 0.8)]),
            (8, "hello", [("bundle", .string(lb)), ("pid", 101), ("ms", 6.0)]),
            (9, "widget.added", [("bundle", .string(lb)), ("kind", "Leaderboard"), ("family", "systemSmall")]),
            (
                10, "activation.start",
                [
                    ("bundle", .string(lb)), ("pid", 101), ("activation", 1), ("kind", "timeline"), ("widget", "Leaderboard"),
                    ("family", "systemSmall")
                ]
            ),
            // Overlaps the timeline: a second row of the same process.
            (
                11, "activation.start",
                [
                    ("bundle", .string(lb)), ("pid", 101), ("activation", 2), ("kind", "snapshot"), ("widget", "Leaderboard"),
                    ("family", "systemSmall")
                ]
            ),
            (12, "reload.requested", [("bundle", .string(lb)), ("kind", "Leaderboard"), ("family", "systemSmall"), ("reason", "initial")]),
            (
                14, "activation.end",
                [("bundle", .string(lb)), ("pid", 101), ("activation", 2), ("kind", "snapshot"), ("outcome", "ok"), ("ms", 3.0)]
            ),
            (
                15, "activation.end",
                [("bundle", .string(lb)), ("pid", 101), ("activation", 1), ("kind", "timeline"), ("outcome", "ok"), ("ms", 5.0)]
            ),
            (
                16, "timeline",
                [
                    ("bundle", .string(lb)), ("kind", "Leaderboard"), ("family", "systemSmall"),
                    ("entries", .array([.raw("{\"score\":1}"), .raw("{\"score\":2}")])),
                    ("entryDates", .array([.string(iso(16)), .string(iso(600))])),
                    ("policy", "atEnd"), ("texts", .array(["Ada leads with 1", "Ada leads with 2"])),
                    ("views", .array([view(score: 1, at: epoch + 0.016).json, view(score: 2, at: epoch + 0.6).json])),
                    ("nextReloadDate", .string(iso(300_000)))
                ]
            ),
            (
                20, "task.created",
                [("bundle", .string(dl)), ("pid", 201), ("session", "feed"), ("taskId", 1), ("url", "http://127.0.0.1/x")]
            ),
            (21, "download.started", [("bundle", .string(dl)), ("session", "feed"), ("taskId", 1), ("attempt", 1), ("resumeFrom", 0)]),
            (
                30, "activation.start",
                [
                    ("bundle", .string(dl)), ("pid", 201), ("activation", 3), ("kind", "timeline"), ("widget", "Feed"),
                    ("family", "systemSmall")
                ]
            ),
            (
                1030, "killed",
                [("bundle", .string(dl)), ("pid", 201), ("reason", "timeBudget"), ("detail", "timeline ran over its 1 s budget")]
            ),
            (
                1031, "activation.end",
                [
                    ("bundle", .string(dl)), ("pid", 201), ("activation", 3), ("kind", "timeline"), ("outcome", "killed"),
                    ("reason", "timeBudget"), ("ms", 1001.0)
                ]
            ),
            (
                1032, "exited",
                [
                    ("bundle", .string(dl)), ("pid", 201), ("signal", "SIGKILL"), ("reason", "timeBudget"), ("cpuMs", 3),
                    ("peakRSSKiB", 2048), ("lifetimeMs", 1029.0)
                ]
            ),
            (
                1500, "download.finished",
                [("bundle", .string(dl)), ("session", "feed"), ("taskId", 1), ("status", 200), ("bytes", 262144), ("attempts", 1)]
            ),
            (1501, "spawned", [("bundle", .string(dl)), ("pid", 202), ("launch", 2), ("ms", 0.8)]),
            (
                1508, "activation.start",
                [("bundle", .string(dl)), ("pid", 202), ("activation", 4), ("kind", "backgroundEvents"), ("session", "feed")]
            ),
            (
                1510, "event.delivered",
                [("bundle", .string(dl)), ("pid", 202), ("session", "feed"), ("taskId", 1), ("eventId", 1), ("attempt", 1)]
            ),
            (1520, "events.finished", [("bundle", .string(dl)), ("pid", 202), ("identifier", "feed"), ("acknowledged", 2)]),
            (
                1521, "activation.end",
                [
                    ("bundle", .string(dl)), ("pid", 202), ("activation", 4), ("kind", "backgroundEvents"), ("session", "feed"),
                    ("outcome", "ok"), ("ms", 13.0)
                ]
            ),
            (
                1600, "reload.denied",
                [
                    ("bundle", .string(lb)), ("kind", "Leaderboard"), ("family", "systemSmall"), ("reason", "budgetExhausted"),
                    ("detail", "60 charged reloads in the last 24 h")
                ]
            ),
            (1700, "location.delivered", [("bundle", .string(lb)), ("pid", 101), ("latitude", 48.85)]),
            (1800, "invariant.violated", [("invariant", "reloadBudget"), ("bundle", .string(lb)), ("detail", "61 reloads in 24 h")]),
            (
                1900, "update.result",
                [
                    ("bundle", "com.example.today"), ("result", "failed"), ("verdict", "completionNeverCalled"),
                    ("detail", "the completion handler was never called")
                ]
            ),
            (2000, "killed", [("bundle", .string(lb)), ("pid", 101), ("reason", "hostShutdown"), ("detail", "the host is shutting down")]),
            (
                2001, "exited",
                [
                    ("bundle", .string(lb)), ("pid", 101), ("signal", "SIGKILL"), ("reason", "hostShutdown"), ("cpuMs", 5),
                    ("peakRSSKiB", 3000), ("lifetimeMs", 1999.0)
                ]
            ),
            (2002, "killed", [("bundle", .string(dl)), ("pid", 202), ("reason", "hostShutdown"), ("detail", "the host is shutting down")]),
            (
                2003, "exited",
                [
                    ("bundle", .string(dl)), ("pid", 202), ("signal", "SIGKILL"), ("reason", "hostShutdown"), ("cpuMs", 2),
                    ("peakRSSKiB", 2000), ("lifetimeMs", 502.0)
                ]
            ),
            (2004, "run.end", [("spawns", 3)])
        ]
        return e.map { HostEvent(t: $0.0, name: $0.1, fields: $0.2) }
    }

    /// A widget's view as the SDK renders it: a gradient background, a text and a timer that
    /// counts to five minutes after `date`.
    static func view(score: Int, at date: Double) -> ViewRendering {
        let blue = ColorPair(light: RGBA(0x007AFFFF), dark: RGBA(0x0A84FFFF))
        let white = ColorPair(RGBA(0xFFFFFFFF))
        let nodes = [
            ViewNode(kind: .group, x: 0, y: 0, width: 170, height: 170, childCount: 3, shape: .roundedRectangle(radius: 22)),
            ViewNode(
                kind: .shape, x: 0, y: 0, width: 170, height: 170, flags: .containerBackground, shape: .rectangle,
                fill: .linearGradient(
                    [GradientStopPayload(color: blue, location: 0), GradientStopPayload(color: white, location: 1)],
                    startX: 0.5, startY: 0, endX: 0.5, endY: 1)),
            ViewNode(
                kind: .text, x: 16, y: 16, width: 120, height: 21,
                text: TextLayout(
                    alignment: .leading,
                    lines: [
                        TextLine(
                            x: 0, baseline: 17, width: 120,
                            runs: [
                                TextRun(text: "Ada leads with \(score)", size: 17, weight: 600, paint: .color(white), width: 120)
                            ])
                    ])),
            ViewNode(
                kind: .text, x: 16, y: 45, width: 40, height: 21,
                text: TextLayout(
                    alignment: .leading,
                    lines: [
                        TextLine(
                            x: 0, baseline: 17, width: 40,
                            runs: [
                                TextRun(
                                    text: "5:00", size: 17, paint: .color(white), width: 40,
                                    dynamic: DynamicText(style: .timer, date: date + 300))
                            ])
                    ]))
        ]
        return ViewRendering(
            light: ViewTree(width: 170, height: 170, cornerRadius: 22, family: "systemSmall", nodes: nodes), nanoseconds: 250_000)
    }

    /// The events as a JSON-lines file in a fresh temporary directory.
    static func write(_ events: [HostEvent], name: String = "run.jsonl") throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-report-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try Data(events.map { $0.jsonLine + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}

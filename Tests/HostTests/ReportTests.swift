import Foundation
import Testing

@testable import SandglassHost
@testable import SandglassReport

/// The report's reading of a run: processes, activations, kills, relaunches linked to their
/// download, widgets' entries, the ledger and the verdicts; the page is self-contained.
@Suite("Report")
struct ReportTests {
    @Test("a log read back gives each part of the run")
    func analysis() throws {
        let path = try ReportFixture.write(ReportFixture.events())
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        let runs = try RunLog.read([path])
        #expect(runs.count == 1)
        let a = RunAnalysis(runs[0])
        #expect(a.processes.map(\.pid) == [101, 201, 202])
        #expect(a.processes[1].killReason == "timeBudget")
        #expect(a.processes[1].exit == "SIGKILL")
        #expect(a.activations.count == 4)
        // The snapshot overlapped the timeline in pid 101: it is drawn on a second row.
        #expect(Set(a.activations.filter { $0.pid == 101 }.map(\.lane)) == [0, 1])
        #expect(a.kills.map(\.reason) == ["timeBudget", "hostShutdown", "hostShutdown"])

        // The download relaunched the Downloader: pid 202 was spawned for session feed's events.
        #expect(a.downloads.count == 1)
        #expect(a.downloads[0].result == "finished")
        #expect(a.downloads[0].deliveredTo == 202)
        #expect(a.relaunches.count == 1)
        #expect(a.processes[a.relaunches[0].process].pid == 202)
        #expect(a.relaunches[0].spawned)
        #expect(a.processes[2].relaunchSession == "feed")

        #expect(a.widgets.count == 1)
        let timeline = try #require(a.widgets.first?.timelines.first)
        #expect(timeline.entries.map(\.text) == ["Ada leads with 1", "Ada leads with 2"])
        #expect(abs((timeline.entries[1].t ?? 0) - 600) < 1.5, "entry dates (to the millisecond) are placed on the run clock")
        #expect(timeline.entries[0].json == "{\"score\":1}")

        #expect(a.ledger.map(\.decision) == ["requested", "denied"])
        #expect(a.ledger[1].reason == "budgetExhausted")

        #expect(a.verdicts.filter { $0.severity == .failure }.map(\.title).sorted() == ["reloadBudget", "update: completionNeverCalled"])
        #expect(a.verdicts.contains { $0.severity == .warning && $0.title == "killed: timeBudget" })
        #expect(!a.verdicts.contains { $0.title.contains("hostShutdown") }, "shutdown kills are not verdicts")
        #expect(!a.passed)
        #expect(a.otherEvents.map(\.name) == ["event.delivered", "events.finished", "location.delivered"])
        #expect(
            a.otherEvents.contains { $0.name == "location.delivered" && $0.count == 1 }, "an event kind the report does not know is kept")
    }

    @Test(
        "twelve timelines of views of 23,000 text runs: each drawing bounded, the page's drawings within their budget, the rest left out and said; an entry's text in a title is clipped"
    )
    func heavyViewsBounded() throws {
        var events = ReportFixture.events()
        let heavy = WidgetDrawingTests.runFlood().json
        for n in 0..<12 {
            events.append(
                HostEvent(
                    t: Double(20 + n), name: "timeline",
                    fields: [
                        ("bundle", "com.example.leaderboard.widget"), ("kind", "Leaderboard"), ("family", "systemSmall"),
                        ("entries", .array([.raw("{}")])), ("entryDates", .array([.string(ReportFixture.iso(Double(20 + n)))])),
                        ("policy", "never"), ("texts", .array([.string(String(repeating: "&", count: 60_000))])),
                        ("views", .array([heavy]))
                    ]))
        }
        var report = HTMLReport(runs: [RunLog(source: "run.jsonl", events: events)])
        report.limits.drawingBytes = 2 << 20
        let html = report.render()
        // Two drawings (light, dark) an entry: at most 256 KiB each, drawn until 2 MiB were.
        #expect(html.utf8.count <= 6 << 20, "a page of \(html.utf8.count) bytes")
        #expect(html.contains("parts left out"))
        #expect(html.contains("entries are not drawn"))
        #expect(!html.contains(String(repeating: "&amp;", count: 1_000)), "an entry's text of 60,000 characters went whole into a title")
    }

    @Test("a log whose host-written fields were edited (the clock, an outcome) still makes no markup of them")
    func editedHostFields() {
        let events = ReportFixture.events().map { event -> HostEvent in
            switch event.name {
            case "run.start":
                return HostEvent(
                    t: event.t, name: event.name,
                    fields: event.fields.map { $0.0 == "clock" ? ("clock", "<img src=x onerror=alert(1)>") : $0 })
            case "activation.end":
                return HostEvent(
                    t: event.t, name: event.name,
                    fields: event.fields.map { $0.0 == "outcome" ? ("outcome", "\"><script>x()</script>") : $0 })
            default:
                return event
            }
        }
        let html = HTMLReport(runs: [RunLog(source: "run.jsonl", events: events)]).render()
        #expect(!html.contains("<img") && !html.contains("<script>x()"))
    }

    @Test(
        "a widget kind with a bidirectional override reorders nothing of the host's text: the override is written out, and names stand in isolates"
    )
    func bidiWrittenOut() {
        let hostile = "\u{202E}draobredaeL"
        let events = ReportFixture.events().map { event -> HostEvent in
            HostEvent(
                t: event.t, name: event.name,
                fields: event.fields.map { field in
                    (field.0 == "kind" || field.0 == "widget") && field.1 == "Leaderboard" ? (field.0, .string(hostile)) : field
                })
        }
        let html = HTMLReport(runs: [RunLog(source: "run.jsonl", events: events)]).render()
        #expect(!html.contains(hostile), "the override reached the page as itself")
        #expect(html.contains(#"<b><bdi>\u{202E}draobredaeL · systemSmall</bdi></b> of <bdi>com.example.leaderboard.widget</bdi> — "#))
        #expect(html.contains("unicode-bidi:isolate"), "inline elements isolate their text")
        // A drawing keeps the widget's own text as it is.
        #expect(HTMLText.escape(hostile) == hostile && HTMLText.escapeVisibly(hostile) == #"\u{202E}draobredaeL"#)
    }

    @Test("the sandbox's layers are on each run's page; a layer the run went without (off, or unavailable and why) is a warning")
    func sandboxLayers() {
        let sandbox: JSONValue = .object([
            ("seccomp", "on, denials reported"), ("landlock", "ABI 7"),
            ("namespaces", "unavailable: the host lacks CAP_SYS_ADMIN and CAP_SYS_CHROOT"),
            ("cgroup", "none (no writable cgroup v2 or v1 memory hierarchy)"), ("rlimits", "off"), ("memory", "watchdog")
        ])
        let events = ReportFixture.events().map { event -> HostEvent in
            event.name == "run.start" ? HostEvent(t: event.t, name: event.name, fields: event.fields + [("sandbox", sandbox)]) : event
        }
        let run = RunLog(source: "run.jsonl", events: events)
        let warnings = RunAnalysis(run).verdicts.filter { $0.severity == .warning && $0.title.hasPrefix("sandbox:") }
        #expect(
            warnings.map(\.title).sorted() == ["sandbox: cgroup unavailable", "sandbox: namespaces unavailable", "sandbox: rlimits off"])
        #expect(warnings.contains { $0.detail.contains("CAP_SYS_CHROOT") })
        let html = HTMLReport(runs: [run]).render()
        #expect(
            html.contains("<p class=\"sub sandbox\">sandbox: seccomp <span>on, denials reported</span> · landlock <span>ABI 7</span> · "))
        #expect(html.contains("<b class=\"gap\">namespaces <span>unavailable: the host lacks"))
    }

    @Test("the page is one self-contained file with the run's parts in it")
    func page() throws {
        let report = HTMLReport(runs: [RunLog(source: "run.jsonl", events: ReportFixture.events())])
        let html = report.render()
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        for external in ["<link", "src=", "href=\"http", "@import"] {
            #expect(!html.contains(external), "nothing is fetched: \(external)")
        }
        #expect(
            html.components(separatedBy: "url(").count == html.components(separatedBy: "url(#").count,
            "url() only refers to the page's own gradients and clips")
        #expect(
            html.components(separatedBy: "http").count - 1 == html.components(separatedBy: "xmlns=\"http://www.w3.org/2000/svg\"").count
                - 1,
            "the only URLs are SVG namespaces")
        #expect(html.contains("Ada leads with 2"), "entries show their text rendering")
        // Each entry drawn light and dark, its timer read at the entry's date.
        #expect(html.components(separatedBy: "class=\"widget-drawing\"").count - 1 == 4)
        #expect(html.contains(">5:00</text>"), "the timer five minutes ahead of each entry's date")
        #expect(
            html.contains("<figure class=\"frame\" title=\"t=") && html.contains("\n{&quot;score&quot;:2}\""),
            "hovering an entry shows its data")
        #expect(html.contains("killed: timeBudget"))
        #expect(html.contains("relaunched by identifier for session feed"))
        #expect(html.contains("class=\"link\""), "the relaunch is linked to its download")
        #expect(html.contains("budgetExhausted"), "the ledger shows denials with their reason")
        #expect(html.contains("reloadBudget") && html.contains("completionNeverCalled"), "the verdicts are listed")
        #expect(html.contains("location.delivered"), "unknown events are shown generically")
        #expect(html.contains("data-report-ready"))
        #expect(html.contains("<span class=\"badge fail\">FAIL</span>"))
    }

    @Test("the logs of several shards merge into one page with totals")
    func shards() throws {
        let first = try ReportFixture.write(ReportFixture.events(shard: "0/2"), name: "shard-0.jsonl")
        let second = try ReportFixture.write(ReportFixture.events(shard: "1/2"), name: "shard-1.jsonl")
        defer {
            for path in [first, second] {
                try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
            }
        }
        let runs = try RunLog.read([first, second])
        #expect(runs.map(\.shard) == ["0/2", "1/2"])
        let html = HTMLReport(runs: runs).render()
        #expect(html.contains("id=\"run-0\"") && html.contains("id=\"run-1\""))
        #expect(html.contains("all 2 runs"))
        #expect(html.contains("shard 1/2 · shard-1.jsonl"))
    }

    @Test("a file with two runs one after the other gives two runs")
    func concatenated() throws {
        let path = try ReportFixture.write(ReportFixture.events() + ReportFixture.events())
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        #expect(try RunLog.read(path).count == 2)
    }

    @Test("a line that is not an event is named with its file and line")
    func badLine() throws {
        let path = try ReportFixture.write(Array(ReportFixture.events().prefix(3)))
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("not json\n".utf8))
        try handle.close()
        #expect {
            try RunLog.read(path)
        } throws: { error in
            (error as? RunLogError)?.description
                == "\(path):4 is not an event of a Sandglass log (a JSON object with \"event\" and \"t\", milliseconds since the run's start)"
        }
    }

    @Test(
        "an edited log is bad input, not a trap: a time past 100 years is named by its line; a pid past 32 bits, an attempt of 2^63-1 and an activation ended after its process was spawned again are drawn"
    )
    func editedLog() throws {
        let path = try ReportFixture.write(Array(ReportFixture.events().prefix(3)) + [HostEvent(t: 1e300, name: "exited", fields: [])])
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        #expect {
            try RunLog.read(path)
        } throws: { error in
            (error as? RunLogError)?.description.hasPrefix("\(path):4 is not an event") == true
        }
        let b = "com.example.leaderboard.widget"
        let edited =
            ReportFixture.events() + [
                HostEvent(t: 20, name: "spawned", fields: [("bundle", .string(b)), ("pid", 3_000_000_000)]),
                HostEvent(t: 21, name: "spawned", fields: [("bundle", .string(b)), ("pid", 5)]),
                HostEvent(
                    t: 22, name: "activation.start", fields: [("bundle", .string(b)), ("pid", 5), ("activation", 9), ("kind", "timeline")]),
                HostEvent(t: 23, name: "spawned", fields: [("bundle", .string(b)), ("pid", 5)]),
                HostEvent(
                    t: 24, name: "activation.end",
                    fields: [("bundle", .string(b)), ("pid", 5), ("activation", 9), ("kind", "timeline"), ("outcome", "ok"), ("ms", 1e300)]),
                HostEvent(
                    t: 25, name: "download.started", fields: [("bundle", .string(b)), ("session", "s"), ("taskId", 1), ("attempt", 1)]),
                HostEvent(
                    t: 26, name: "download.retry",
                    fields: [("bundle", .string(b)), ("session", "s"), ("taskId", 1), ("attempt", .int(Int64.max))]),
                HostEvent(t: 27, name: "pid.far", fields: [("pid", .int(Int64.max))])
            ]
        let html = HTMLReport(runs: [RunLog(source: "run.jsonl", events: edited)]).render()
        #expect(html.hasSuffix("</html>\n") || html.hasSuffix("</html>"))
        var converter = TraceEventConverter(pidOffset: 1_000_000)
        let trace = edited.flatMap { converter.convert($0) }
        #expect(!trace.isEmpty)
    }

    @Test(
        "ISO 8601 dates of the log are read back exactly",
        arguments: [
            ("1970-01-01T00:00:00Z", 0.0), ("2026-11-21T22:13:40.641Z", 1_795_299_220.641),
            ("2000-02-29T12:00:00+02:00", 951_818_400.0), ("2026-11-21T22:13:40.641", nil)
        ])
    func dates(_ text: String, _ seconds: Double?) {
        let parsed = ISO8601Instant.seconds(text)
        if let seconds {
            #expect(abs((parsed ?? -1) - seconds) < 0.0005)
        } else {
            #expect(parsed == nil)
        }
    }
}

import Foundation
import SandglassHost
import SandglassReport
import SandglassTesting
import Testing

/// Reports and traces of real runs: the page opens in a real browser without script errors; the
/// trace's tracks and slices match the log; the command line writes both.
@Suite("Reports of real runs", .serialized)
struct ReportEndToEndTests {
    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-e2e-report-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test(
        "the report of a run with a budget kill, a relaunch by identifier and widgets drawn as they look renders in Chromium without script errors",
        .enabled(if: Chromium.path != nil || Chromium.isRequired, Chromium.skipReason))
    func rendersInBrowser() async throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("run.jsonl").path
        let server = try await FixtureServer.start()
        do {
            try await withHost({
                $0.logPath = log
                $0.budgetOverrides.idle = .seconds(2)
                // Held until the Downloader is terminated (idle), so that its events relaunch it.
                $0.extensionEnvironment["SANDGLASS_FIXTURE_URL"] = server.url("/bytes/262144?chunk=16384&gate=report")
            }) { host in
                try await host.install(Examples.app("Leaderboard.app"))
                try await host.install(Examples.app("Hanging.app"))
                try await host.install(Examples.app("Downloader.app"))
                await host.start()
                _ = try await host.waitFor("killed", timeout: .seconds(30)) { $0.string("reason") == "timeBudget" }
                _ = try await host.waitFor("killed", timeout: .seconds(30)) {
                    $0.bundle == "com.example.downloader.widget" && $0.string("reason") == "idle"
                }
                server.open(gate: "report")
                _ = try await host.waitFor("events.finished", timeout: .seconds(60))
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()

        let runs = try RunLog.read([log])
        let analysis = RunAnalysis(runs[0])
        #expect(analysis.relaunches.contains { $0.spawned }, "the Downloader was relaunched for its session")
        #expect(analysis.kills.contains { $0.reason == "timeBudget" })
        #expect(analysis.widgets.contains { $0.timelines.contains { $0.entries.contains { $0.text != nil } } }, "entries with text")
        #expect(analysis.widgets.contains { $0.timelines.contains { $0.entries.contains { $0.view != nil } } }, "entries with their views")

        let page = dir.appendingPathComponent("report.html").path
        try HTMLReport(runs: runs).write(to: page)
        let rendered = try await Chromium.open(page)
        #expect(rendered.dom.contains("data-report-ready=\"yes\""), "the page's script ran to the end")
        #expect(
            !rendered.dom.contains("data-script-errors=\""),
            "no script error: \(rendered.dom.components(separatedBy: "data-script-errors=").dropFirst().first?.prefix(300) ?? "")")
        let consoleErrors = rendered.log.split(separator: "\n").filter {
            $0.contains("CONSOLE") && ($0.contains("Uncaught") || $0.contains("Error"))
        }
        #expect(consoleErrors.isEmpty, "console: \(consoleErrors)")
        #expect(rendered.dom.contains("class=\"toolbar\""), "the zoom controls were added by the script")
        #expect(rendered.dom.contains("relaunched by identifier"))
        // The widgets drawn as they look: each entry light and dark, the placeholder redacted.
        #expect(rendered.dom.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"widget-drawing\""))
        #expect(rendered.dom.contains("data-family=\"systemSmall\" data-appearance=\"dark\""))
        #expect(rendered.dom.contains("class=\"redacted\""), "the placeholder is drawn redacted")
        #expect(rendered.dom.contains("<figure class=\"frame\" title=\""), "each entry's data on hover")

        // Zoomed from the address: the script redraws every chart eight times as wide.
        let zoomed = try await Chromium.open(page, fragment: "zoom=8")
        #expect(!zoomed.dom.contains("data-script-errors=\""))
        #expect(
            zoomed.dom.contains("class=\"timeaxis gantt\" data-duration=") && zoomed.dom.contains("width=\"8246\""),
            "the lifecycle chart is redrawn at zoom 8")
    }

    @Test("run --trace --report --json writes a trace whose tracks and slices match the log; report merges logs")
    func commandLine() async throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("run.jsonl").path, trace = dir.appendingPathComponent("run.trace.json").path
        let page = dir.appendingPathComponent("run.html").path
        let result = try await CommandLineTests.run([
            "run", try Examples.app("Leaderboard.app"), try Examples.app("Hanging.app"),
            "--duration", "2s", "--budget", "timeline=500ms", "--log", log,
            "--trace", trace, "--report", page, "--json"
        ])
        #expect(result.status == 0, "\(result.error)")
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any],
            "stdout is the summary as JSON: \(result.output)")
        #expect(summary["spawns"] as? Int ?? 0 >= 2)
        #expect(!result.output.contains("said hello"), "no trace with --json")

        let events = try RunLog.read(log)[0].events
        let traceEvents = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: trace))) as? [[String: Any]])
        let spawned = Set(events.filter { $0.kind == .spawned }.compactMap { $0.pid.map(Int.init) })
        let tracks = Set(traceEvents.filter { $0["name"] as? String == "process_name" }.compactMap { $0["pid"] as? Int })
        #expect(spawned.isSubset(of: tracks) && tracks.subtracting(spawned).count == 1, "a track per extension process, and the host's")
        let slices = traceEvents.filter { $0["ph"] as? String == "X" && $0["cat"] as? String == "activation" }
        #expect(slices.count == events.filter { $0.kind == .activationEnd }.count)
        for slice in slices {
            #expect(spawned.contains(slice["pid"] as? Int ?? -1), "each slice is on an extension's track")
        }
        let kills = traceEvents.filter { $0["ph"] as? String == "i" && ($0["name"] as? String)?.hasPrefix("killed: ") == true }
        #expect(kills.count == events.filter { $0.kind == .killed }.count)
        #expect(kills.contains { $0["name"] as? String == "killed: timeBudget" })

        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("com.example.hanging.widget") && html.contains("killed: timeBudget"))

        // Two logs (as two shards would give) merge into one report; the exit status is the verdict.
        let copy = dir.appendingPathComponent("second.jsonl").path
        try FileManager.default.copyItem(atPath: log, toPath: copy)
        let merged = try await CommandLineTests.run([
            "report", log, copy, "-o", dir.appendingPathComponent("merged.html").path,
            "--trace", dir.appendingPathComponent("merged.json").path, "--json"
        ])
        #expect(merged.status == 0, "\(merged.error)")
        let verdict = try #require(try JSONSerialization.jsonObject(with: Data(merged.output.utf8)) as? [String: Any], "\(merged.output)")
        #expect((verdict["runs"] as? [Any])?.count == 2)
        #expect(verdict["passed"] as? Bool == true, "kills over a budget are warnings, not failures")

        let bad = try await CommandLineTests.run(["report", dir.appendingPathComponent("missing.jsonl").path, "-o", page])
        #expect(bad.status == 2)
        #expect(bad.error.contains("missing.jsonl"))
    }
}

import Foundation
import SandglassHost

/// The report of one or more runs as a single, self-contained HTML file — styles, script and
/// charts inline, nothing fetched from the network — for a person to open in a browser.
///
/// For each run: a lifecycle chart per extension (process lifetimes, activations, kills with
/// their reason, relaunches by identifier linked to the download that caused them), each
/// widget's entries over time (with their text rendering) and drawn as the widget would look
/// (light and dark, along its timelines), the reload ledger and the verdicts.
/// Several logs — the shards of a campaign — are merged into one page with their totals.
///
/// ```swift
/// try HTMLReport(runs: RunLog.read(["run.jsonl"])).write(to: "report.html")
/// ```
public struct HTMLReport: Sendable {
    /// The analysed runs, in the order given.
    public let analyses: [RunAnalysis]
    /// The page's title.
    public var title = "Sandglass report"

    /// Limits that keep a page of a very long run openable; what is left out is said on the page.
    public struct Limits: Sendable {
        /// Activation bars drawn per run.
        public var bars = 20_000
        /// Rows of the reload ledger per run.
        public var ledgerRows = 2_000
        /// Timelines listed per widget (the most recent).
        public var timelinesPerWidget = 40
        /// Entries drawn per widget on its strip.
        public var entrySegments = 3_000
        /// Verdicts listed in all.
        public var verdicts = 2_000
        /// Widgets drawn as they look, per run.
        public var drawnWidgets = 60
        /// Entries drawn per widget (the latest), besides its placeholder.
        public var drawnEntriesPerWidget = 12
        /// Bytes of drawings per page: past them, the rest are left out (a drawing takes at
        /// most 256 KiB, a real widget's a few KiB).
        public var drawingBytes = 32 << 20

        public init() {}
    }

    /// What the page leaves out of very long runs.
    public var limits = Limits()

    /// The report of `runs`.
    public init(runs: [RunLog]) {
        analyses = runs.map(RunAnalysis.init)
    }

    /// Whether every run passed (no verdict of severity failure).
    public var passed: Bool { analyses.allSatisfy(\.passed) }

    /// Writes the page to `path`.
    public func write(to path: String) throws {
        try Data(render().utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// The page.
    public func render() -> String {
        var page = HTMLPage()
        page.raw("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        page.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        page.raw("<title>\(HTMLText.escapeVisibly(title))</title><style>\(Self.stylesheet)</style>")
        // First of all, so that an error in any later script is recorded where a test can see it.
        page.raw("<script>\(Self.errorCatcher)</script></head><body>")
        header(&page)
        totals(&page)
        verdicts(&page)
        for (index, analysis) in analyses.enumerated() {
            run(analysis, index: index, &page)
        }
        page.raw(
            "<footer>Made by <code>sandglass report</code>. Times are on each run's clock (t = 0 at run.start); hover any bar or mark for its details.</footer>"
        )
        page.raw("<script>\(Self.script)</script></body></html>\n")
        return page.text
    }

    // MARK: top of the page

    private func header(_ page: inout HTMLPage) {
        let status = passed ? "<span class=\"badge pass\">PASS</span>" : "<span class=\"badge fail\">FAIL</span>"
        page.raw("<header><h1>\(HTMLText.escapeVisibly(title)) \(status)</h1>")
        let sources = Set(analyses.map(\.run.source)).sorted()
        page.raw("<p class=\"sub\">\(analyses.count) run\(analyses.count == 1 ? "" : "s") from ")
        page.raw(sources.map { "<code>\(HTMLText.escapeVisibly($0))</code>" }.joined(separator: ", "))
        page.raw("</p><p id=\"report-status\" class=\"sub\">Interactive parts need JavaScript.</p></header>")
    }

    private func totals(_ page: inout HTMLPage) {
        page.raw("<section><h2>Runs</h2><table class=\"data\"><thead><tr><th>run</th><th>clock</th><th>started</th><th>length</th>")
        page.raw("<th>processes</th><th>activations</th><th>kills</th><th>timelines</th><th>verdicts</th></tr></thead><tbody>")
        var all = (spawns: 0, activations: 0, timelines: 0, failures: 0, warnings: 0)
        var outcomes: [String: Int] = [:], kills: [String: Int] = [:]
        for (index, analysis) in analyses.enumerated() {
            let s = analysis.summary
            let failures = analysis.verdicts.filter { $0.severity == .failure }.count
            let warnings = analysis.verdicts.count - failures
            all.spawns += s.spawns; all.activations += s.activations; all.timelines += s.timelines
            all.failures += failures; all.warnings += warnings
            outcomes.merge(s.activationsByOutcome, uniquingKeysWith: +)
            kills.merge(s.killsByReason, uniquingKeysWith: +)
            let started =
                analysis.run.epoch > 0
                ? Date(timeIntervalSince1970: analysis.run.epoch).formatted(
                    .iso8601.year().month().day().time(includingFractionalSeconds: false))
                : "?"
            page.raw("<tr><td><a href=\"#run-\(index)\">\(HTMLText.isolate(analysis.run.label))</a></td>")
            page.raw(
                "<td>\(HTMLText.escapeVisibly(analysis.run.clock))</td><td>\(started)</td><td>\(RunAnalysis.formatMs(analysis.run.durationMs))</td>"
            )
            page.raw("<td>\(s.spawns)</td><td>\(s.activations) \(Self.counts(s.activationsByOutcome))</td>")
            page.raw("<td>\(Self.counts(s.killsByReason, empty: "none"))</td><td>\(s.timelines)</td>")
            page.raw("<td>\(Self.verdictCell(failures, warnings))</td></tr>")
        }
        page.raw("</tbody>")
        if analyses.count > 1 {
            page.raw("<tfoot><tr><th>all \(analyses.count) runs</th><th></th><th></th><th></th><th>\(all.spawns)</th>")
            page.raw("<th>\(all.activations) \(Self.counts(outcomes))</th><th>\(Self.counts(kills, empty: "none"))</th>")
            page.raw("<th>\(all.timelines)</th><th>\(Self.verdictCell(all.failures, all.warnings))</th></tr></tfoot>")
        }
        page.raw("</table></section>")
    }

    private func verdicts(_ page: inout HTMLPage) {
        let rows = analyses.enumerated().flatMap { index, analysis in analysis.verdicts.map { (index, $0) } }
            .sorted { ($0.1.severity, $0.0, $0.1.t) < ($1.1.severity, $1.0, $1.1.t) }
        page.raw("<section id=\"verdicts\"><h2>Verdicts</h2>")
        if rows.isEmpty {
            page.raw(
                "<p class=\"ok\">Nothing to look at: no invariant violated, no misuse, no kill beyond idle, chaos and shutdown.</p></section>"
            )
            return
        }
        page.raw(
            "<p class=\"sub\">Failures break a run's contract (invariants, update misuse, protocol violations); warnings are kills over a budget, denials and failed work.</p>"
        )
        page.raw("<input class=\"filter\" type=\"search\" placeholder=\"filter verdicts…\" data-table=\"verdict-table\">")
        page.raw(
            "<table class=\"data\" id=\"verdict-table\"><thead><tr><th></th><th>run</th><th>t</th><th>what</th><th>extension</th><th>detail</th><th>event</th></tr></thead><tbody>"
        )
        for (index, verdict) in rows.prefix(limits.verdicts) {
            let mark =
                verdict.severity == .failure ? "<span class=\"badge fail\">failure</span>" : "<span class=\"badge warn\">warning</span>"
            page.raw(
                "<tr class=\"\(verdict.severity.rawValue)\"><td>\(mark)</td><td><a href=\"#run-\(index)\">\(HTMLText.escapeVisibly(analyses[index].run.label))</a></td>"
            )
            page.raw("<td class=\"num\">\(Self.at(verdict.t))</td>")
            page.raw("<td>\(HTMLText.escapeVisibly(verdict.title))</td><td>\(HTMLText.escapeVisibly(verdict.bundle ?? ""))</td>")
            page.raw(
                "<td>\(HTMLText.escapeVisibly(HTMLText.clip(verdict.detail, 400)))</td><td><code>\(HTMLText.escapeVisibly(verdict.event))</code></td></tr>"
            )
        }
        page.raw("</tbody></table>")
        if rows.count > limits.verdicts { page.raw("<p class=\"note\">\(rows.count - limits.verdicts) more verdicts are not listed.</p>") }
        page.raw("</section>")
    }

    // MARK: one run

    private func run(_ analysis: RunAnalysis, index: Int, _ page: inout HTMLPage) {
        page.raw("<section class=\"run\" id=\"run-\(index)\"><h2>\(HTMLText.isolate(analysis.run.label)) ")
        page.raw(analysis.passed ? "<span class=\"badge pass\">pass</span>" : "<span class=\"badge fail\">fail</span>")
        page.raw(
            "</h2><p class=\"sub\">\(HTMLText.escapeVisibly(analysis.run.source)) · \(HTMLText.escapeVisibly(analysis.run.clock)) clock · \(RunAnalysis.formatMs(analysis.run.durationMs)) · \(analysis.run.events.count) events</p>"
        )
        let layers = analysis.run.sandbox
        if !layers.isEmpty {
            let gaps = Set(analysis.run.sandboxGaps.map(\.layer))
            let shown = layers.map { layer, state in
                let text = "\(HTMLText.escapeVisibly(layer)) <span>\(HTMLText.escapeVisibly(state))</span>"
                return gaps.contains(layer) ? "<b class=\"gap\">\(text)</b>" : text
            }
            page.raw("<p class=\"sub sandbox\">sandbox: \(shown.joined(separator: " · "))</p>")
        }
        gantt(analysis, runIndex: index, &page)
        widgets(analysis, runIndex: index, &page)
        ledger(analysis, runIndex: index, &page)
        otherEvents(analysis, &page)
        page.raw("</section>")
    }

    static func counts(_ counts: [String: Int], empty: String = "") -> String {
        if counts.isEmpty { return empty }
        return "<span class=\"counts\">"
            + counts.sorted { $0.key < $1.key }.map { "\($0.value) \(HTMLText.escapeVisibly($0.key))" }.joined(separator: ", ") + "</span>"
    }

    private static func verdictCell(_ failures: Int, _ warnings: Int) -> String {
        var parts: [String] = []
        if failures > 0 { parts.append("<span class=\"badge fail\">\(failures) failure\(failures == 1 ? "" : "s")</span>") }
        if warnings > 0 { parts.append("<span class=\"badge warn\">\(warnings) warning\(warnings == 1 ? "" : "s")</span>") }
        return parts.isEmpty ? "<span class=\"badge pass\">none</span>" : parts.joined(separator: " ")
    }
}

/// The page being written.
struct HTMLPage {
    private(set) var text = ""

    mutating func raw(_ html: String) {
        text += html
    }
}

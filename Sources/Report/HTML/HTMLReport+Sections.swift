import Foundation
import SandglassHost

extension HTMLReport {
    /// Each widget's entries over time: a strip on the run's time axis showing which entry was on
    /// screen when (its text rendering inside), then the timelines it was given, latest first.
    func widgets(_ analysis: RunAnalysis, runIndex: Int, _ page: inout HTMLPage) {
        page.raw("<h3>Widgets and their entries</h3>")
        guard !analysis.widgets.isEmpty else {
            page.raw("<p class=\"note\">No widget was on the home screen in this run.</p>")
            return
        }
        let axis = TimeAxis(duration: analysis.run.durationMs)
        let f = HTMLText.coordinate
        let e = HTMLText.escapeVisibly
        let i = HTMLText.isolate
        let rowHeight = 20.0
        let height = 24 + Double(analysis.widgets.count) * (rowHeight + 4)
        page.raw(
            "<div class=\"chart\"><svg class=\"timeaxis strips\" data-duration=\"\(axis.duration)\" width=\"\(f(axis.width))\" height=\"\(f(height))\" xmlns=\"http://www.w3.org/2000/svg\">"
        )
        ticks(axis, height: height, &page)
        for (row, widget) in analysis.widgets.enumerated() {
            let y = 24 + Double(row) * (rowHeight + 4)
            page.raw(
                "<text class=\"label\" x=\"6\" y=\"\(f(y + 14))\">\(e(HTMLText.clip(widget.shortName, 34)))<title>\(e("\(widget.name) of \(widget.bundle)"))</title></text>"
            )
            var drawn = 0
            for (segment, parity) in segments(of: widget, until: analysis.run.durationMs) where drawn < limits.entrySegments {
                drawn += 1
                let label = segment.entry.text ?? segment.entry.json
                let title =
                    "\(TimeAxis.label(segment.start)) – \(TimeAxis.label(segment.end)) · entry \(segment.entry.date ?? "?")\n\(segment.entry.text.map { "“\(HTMLText.clip($0, 500))”\n" } ?? "")\(HTMLText.clip(segment.entry.json, 600))"
                page.raw(
                    "<svg class=\"seg p\(parity)\" data-t0=\"\(segment.start)\" data-t1=\"\(segment.end)\" x=\"\(f(axis.x(segment.start)))\" y=\"\(f(y))\""
                )
                page.raw(
                    " width=\"\(f(axis.width(segment.start, segment.end, minimum: 1)))\" height=\"\(f(rowHeight))\"><rect width=\"100%\" height=\"100%\"/>"
                )
                page.raw("<text x=\"4\" y=\"14\">\(e(HTMLText.clip(label, 80)))</text><title>\(e(title))</title></svg>")
            }
            if widget.timelines.isEmpty {
                page.raw("<text class=\"none\" x=\"\(f(TimeAxis.labelWidth + 6))\" y=\"\(f(y + 14))\">no timeline recorded</text>")
            }
        }
        page.raw("</svg></div>")
        filmstrips(analysis, runIndex: runIndex, &page)
        for widget in analysis.widgets where !widget.timelines.isEmpty {
            page.raw(
                "<details class=\"widget\"><summary><b>\(i(widget.name))</b> of \(i(widget.bundle)) — \(widget.timelines.count) timeline\(widget.timelines.count == 1 ? "" : "s")</summary>"
            )
            page.raw(
                "<table class=\"data\"><thead><tr><th>recorded at</th><th>policy</th><th>next reload</th><th>entries (date → text, or the entry as encoded)</th></tr></thead><tbody>"
            )
            for timeline in widget.timelines.reversed().prefix(limits.timelinesPerWidget) {
                page.raw("<tr><td class=\"num\">\(Self.at(timeline.t))</td><td>\(e(timeline.policy))</td>")
                page.raw("<td>\(e(timeline.nextReloadDate ?? "—"))</td><td><ol class=\"entries\">")
                for entry in timeline.entries.prefix(20) {
                    let when = entry.t.map { "t=" + TimeAxis.label(max(0, $0)) } ?? (entry.date ?? "?")
                    page.raw("<li><span class=\"when\" title=\"\(e(entry.date ?? ""))\">\(e(when))</span> ")
                    if let text = entry.text { page.raw("<span class=\"text\">\(e(HTMLText.clip(text, 500)))</span> ") }
                    page.raw("<code>\(e(HTMLText.clip(entry.json, 160)))</code></li>")
                }
                if timeline.entries.count > 20 { page.raw("<li class=\"note\">\(timeline.entries.count - 20) more entries</li>") }
                page.raw("</ol></td></tr>")
            }
            page.raw("</tbody></table>")
            if widget.timelines.count > limits.timelinesPerWidget {
                page.raw("<p class=\"note\">The \(limits.timelinesPerWidget) most recent of \(widget.timelines.count) timelines.</p>")
            }
            page.raw("</details>")
        }
    }

    /// The periods during which each entry was on screen: from its date (or from when its
    /// timeline arrived) until the next entry's date or the next timeline.
    private func segments(
        of widget: RunAnalysis.Widget, until end: Double
    ) -> [(segment: (start: Double, end: Double, entry: RunAnalysis.Entry), parity: Int)] {
        var result: [(segment: (start: Double, end: Double, entry: RunAnalysis.Entry), parity: Int)] = []
        for (k, timeline) in widget.timelines.enumerated() {
            let replacedAt = k + 1 < widget.timelines.count ? widget.timelines[k + 1].t : end
            let dated = timeline.entries.filter { $0.t != nil }.sorted { $0.t! < $1.t! }
            for (j, entry) in dated.enumerated() {
                let start = max(entry.t!, timeline.t)
                let stop = min(j + 1 < dated.count ? dated[j + 1].t! : replacedAt, replacedAt)
                guard stop > start else { continue }
                result.append(((start, stop, entry), result.count % 2))
            }
        }
        return result
    }

    /// The reload ledger: every reload requested, denied, failed or coalesced, with its reason.
    func ledger(_ analysis: RunAnalysis, runIndex: Int, _ page: inout HTMLPage) {
        page.raw("<h3>Reload ledger</h3>")
        guard !analysis.ledger.isEmpty else {
            page.raw("<p class=\"note\">No reload was requested, denied or failed in this run.</p>")
            return
        }
        var perWidget: [String: [String: Int]] = [:]
        for row in analysis.ledger {
            perWidget["\(row.bundle) · \(row.kind)", default: [:]]["\(row.decision)\(row.reason.map { " (\($0))" } ?? "")", default: 0] += 1
        }
        page.raw("<table class=\"data compact\"><thead><tr><th>widget</th><th>decisions</th></tr></thead><tbody>")
        for (widget, counts) in perWidget.sorted(by: { $0.key < $1.key }) {
            page.raw("<tr><td>\(HTMLText.isolate(widget))</td><td>\(Self.counts(counts))</td></tr>")
        }
        page.raw("</tbody></table>")
        let id = "ledger-\(runIndex)"
        page.raw("<input class=\"filter\" type=\"search\" placeholder=\"filter the ledger…\" data-table=\"\(id)\">")
        page.raw(
            "<table class=\"data\" id=\"\(id)\"><thead><tr><th>t</th><th>decision</th><th>extension</th><th>widget</th><th>reason</th><th>detail</th></tr></thead><tbody>"
        )
        for row in analysis.ledger.prefix(limits.ledgerRows) {
            page.raw("<tr class=\"d-\(Self.cssName(row.decision))\"><td class=\"num\">\(Self.at(row.t))</td>")
            page.raw("<td>\(HTMLText.escapeVisibly(row.decision))</td><td>\(HTMLText.escapeVisibly(row.bundle))</td>")
            page.raw(
                "<td>\(HTMLText.escapeVisibly(row.kind + (row.family.map { " · \($0)" } ?? "")))</td><td>\(HTMLText.escapeVisibly(row.reason ?? ""))</td>"
            )
            page.raw("<td>\(HTMLText.escapeVisibly(HTMLText.clip(row.detail ?? "", 300)))</td></tr>")
        }
        page.raw("</tbody></table>")
        if analysis.ledger.count > limits.ledgerRows {
            page.raw("<p class=\"note\">The first \(limits.ledgerRows) of \(analysis.ledger.count) ledger lines.</p>")
        }
    }

    /// Events no other part of the page shows (new kinds of events included), with one example each.
    func otherEvents(_ analysis: RunAnalysis, _ page: inout HTMLPage) {
        guard !analysis.otherEvents.isEmpty else { return }
        page.raw(
            "<details class=\"other\"><summary><b>Other events</b> — \(analysis.otherEvents.reduce(0) { $0 + $1.count }) events of \(analysis.otherEvents.count) kinds not drawn above</summary>"
        )
        page.raw("<table class=\"data\"><thead><tr><th>event</th><th>count</th><th>the first of them</th></tr></thead><tbody>")
        for other in analysis.otherEvents {
            page.raw("<tr><td><code>\(HTMLText.escapeVisibly(other.name))</code></td><td class=\"num\">\(other.count)</td>")
            page.raw("<td><code>\(HTMLText.escapeVisibly(HTMLText.clip(other.first.jsonLine, 400)))</code></td></tr>")
        }
        page.raw("</tbody></table></details>")
    }
}

import Foundation
import SandglassHost

/// The bench run as one self-contained HTML page (no script, no network): the figures beside
/// their baselines with verdicts, each latency distribution plotted as inline SVG (percentile on
/// the HdrHistogram axis, figure and baseline together), the scalar figures, and where the time
/// goes — said in full wherever a target is missed.
enum BenchPage {
    static func render(_ report: BenchReport) -> String {
        var body = ""
        body += "<h1>Sandglass bench</h1>\n"
        body +=
            "<p class=meta>\(escape(report.machine)) · \(escape(ISO8601DateFormatter().string(from: report.date)))\(report.quick ? " · --quick" : "")\(report.shard.count > 1 ? " · shard \(report.shard)" : "")</p>\n"
        body +=
            "<p>Every figure is measured beside its baseline in the same run, interleaved where the two can alternate, so that the noise of a shared machine hits both alike. Percentiles come from HdrHistogram (3 significant digits).</p>\n"

        body +=
            "<h2>Latency figures</h2>\n<table>\n<tr><th>figure</th><th>p50</th><th>p90</th><th>p99</th><th>max</th><th>n</th><th>baseline (same run)</th><th>p50</th><th>p99</th><th>ratio</th><th>target</th></tr>\n"
        for row in report.rows {
            let verdict =
                row.verdict.map { "<span class=\($0 == "met" ? "met" : "missed")>\(escape(row.target!.text)): \(escape($0))</span>" } ?? ""
            body += "<tr><td>\(escape(row.name))</td>" + cells(row.distribution) + "<td>\(row.distribution.count)</td>"
            body +=
                "<td>\(escape(row.baselineName))</td><td>\(formatMicroseconds(row.baseline.p50))</td><td>\(formatMicroseconds(row.baseline.p99))</td>"
            body += "<td>\(String(format: "%.2f×", row.ratio))</td><td>\(verdict)</td></tr>\n"
        }
        body += "</table>\n"

        if !report.scalars.isEmpty {
            body +=
                "<h2>Throughput, density, virtual clock</h2>\n<table>\n<tr><th>figure</th><th>value</th><th>baseline (same run)</th><th>value</th><th>ratio</th><th>target</th></tr>\n"
            for s in report.scalars {
                let verdict =
                    s.target.map { t in
                        s.met.map { "<span class=\($0 ? "met" : "missed")>\(escape(t)): \($0 ? "met" : "missed")</span>" } ?? escape(t)
                    } ?? ""
                body += "<tr><td>\(escape(s.name))</td><td>\(escape(formatScalar(s.value, s.unit)))</td><td>\(escape(s.baselineName))</td>"
                body +=
                    "<td>\(s.baseline.map { escape(formatScalar($0, s.unit)) } ?? "—")</td><td>\(s.ratio.map { String(format: "%.3f×", $0) } ?? "")</td><td>\(verdict)</td></tr>\n"
            }
            body += "</table>\n"
            for s in report.scalars where !s.notes.isEmpty {
                body += "<p><b>\(escape(s.name))</b>: " + s.notes.map(escape).joined(separator: "; ") + "</p>\n"
            }
        }

        let missed = report.rows.filter { $0.met == false } + []
        let missedScalars = report.scalars.filter { $0.met == false }
        if !missed.isEmpty || !missedScalars.isEmpty {
            body += "<h2>Targets missed</h2>\n<ul>\n"
            for row in missed {
                body += "<li><b>\(escape(row.name))</b> — \(escape(row.target!.text)): \(escape(row.verdict ?? "")) "
                body +=
                    "(\(String(format: "%.2f×", row.ratio)); p50 \(formatMicroseconds(row.distribution.p50)) against \(formatMicroseconds(row.baseline.p50)), p99 \(formatMicroseconds(row.distribution.p99))). "
                body += row.notes.map(escape).joined(separator: " ") + "</li>\n"
            }
            for s in missedScalars {
                body +=
                    "<li><b>\(escape(s.name))</b> — \(escape(s.target ?? "")): missed. " + s.notes.map(escape).joined(separator: " ")
                    + "</li>\n"
            }
            body += "</ul>\n"
        }

        for section in report.sections {
            body += "<h2>\(escape(section.title))</h2>\n<ul>\n" + section.lines.map { "<li>\(escape($0))</li>\n" }.joined() + "</ul>\n"
        }

        body +=
            "<h2>Distributions</h2>\n<p>x: percentile, on the axis 1 / (1 − p) (equal room for 90, 99, 99.9 %); y: latency. The figure in blue, its baseline in orange.</p>\n"
        for row in report.rows {
            body +=
                "<figure><figcaption>\(escape(row.name)) <span class=meta>(n = \(row.distribution.count)) against \(escape(row.baselineName)) (n = \(row.baseline.count))</span></figcaption>\n"
            body += plot(row) + "</figure>\n"
            if !row.notes.isEmpty { body += "<p class=note>" + row.notes.map(escape).joined(separator: " ") + "</p>\n" }
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Sandglass bench</title>
            <style>
            body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; padding: 0 1em; }
            table { border-collapse: collapse; margin: 1em 0; }
            th, td { border-bottom: 1px solid #ddd; padding: 3px 8px; text-align: right; }
            th:first-child, td:first-child, td:nth-child(7) { text-align: left; }
            .meta { color: #666; } .met { color: #17803d; font-weight: 600; } .missed { color: #b3261e; font-weight: 600; }
            figure { margin: 1.5em 0; } figcaption { font-weight: 600; margin-bottom: .3em; } .note { color: #444; max-width: 70em; }
            svg text { font: 11px system-ui, sans-serif; fill: #444; }
            </style></head><body>
            \(body)
            </body></html>

            """
    }

    private static func cells(_ d: Distribution) -> String {
        "<td>\(formatMicroseconds(d.p50))</td><td>\(formatMicroseconds(d.p90))</td><td>\(formatMicroseconds(d.p99))</td><td>\(formatMicroseconds(d.max))</td>"
    }

    /// The percentile plot of a figure and its baseline, as inline SVG.
    static func plot(_ row: FigureRow) -> String {
        let width = 720.0, height = 260.0, left = 70.0, right = 20.0, top = 12.0, bottom = 36.0
        let series = [(row.distribution.plotPoints, "#1f6feb"), (row.baseline.plotPoints, "#e8730c")]
        let maxX = 4.0 // 99.99 %
        func x(_ p: Double) -> Double {
            let v = p >= 100 ? maxX : min(maxX, log10(1 / max(1e-6, 1 - p / 100)))
            return left + v / maxX * (width - left - right)
        }
        let top99 = series.flatMap { $0.0.map(\.1) }.filter { $0.isFinite }.max() ?? 1
        let yMax = niceCeiling(top99 * 1.05)
        func y(_ us: Double) -> Double { top + (1 - us / yMax) * (height - top - bottom) }
        var svg = "<svg width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">"
        svg +=
            "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(width - left - right)\" height=\"\(height - top - bottom)\" fill=\"#fafafa\" stroke=\"#ccc\"/>"
        for (p, label) in [(0.0, "0 %"), (90.0, "90 %"), (99.0, "99 %"), (99.9, "99.9 %"), (99.99, "99.99 %")] {
            let px = x(p)
            svg += "<line x1=\"\(f(px))\" y1=\"\(top)\" x2=\"\(f(px))\" y2=\"\(f(height - bottom))\" stroke=\"#e4e4e4\"/>"
            svg += "<text x=\"\(f(px))\" y=\"\(f(height - bottom + 16))\" text-anchor=\"middle\">\(label)</text>"
        }
        for i in 0...4 {
            let value = yMax * Double(i) / 4
            svg += "<line x1=\"\(left)\" y1=\"\(f(y(value)))\" x2=\"\(f(width - right))\" y2=\"\(f(y(value)))\" stroke=\"#e4e4e4\"/>"
            svg += "<text x=\"\(f(left - 6))\" y=\"\(f(y(value) + 4))\" text-anchor=\"end\">\(escape(formatMicroseconds(value)))</text>"
        }
        for (points, colour) in series where !points.isEmpty {
            let path = points.map { "\(f(x($0.0))),\(f(y($0.1.isFinite ? $0.1 : 0)))" }.joined(separator: " ")
            svg += "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\" points=\"\(path)\"/>"
        }
        svg += "<text x=\"\(f(left + 8))\" y=\"\(f(top + 14))\" style=\"fill:#1f6feb\">\(escape(row.name))</text>"
        svg += "<text x=\"\(f(left + 8))\" y=\"\(f(top + 28))\" style=\"fill:#e8730c\">\(escape(row.baselineName))</text>"
        return svg + "</svg>\n"
    }

    /// 1, 2 or 5 times a power of ten, at least `value`.
    private static func niceCeiling(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let magnitude = pow(10, floor(log10(value)))
        for step in [1.0, 2.0, 2.5, 5.0, 10.0] where step * magnitude >= value { return step * magnitude }
        return 10 * magnitude
    }

    private static func f(_ v: Double) -> String { String(format: "%.1f", v) }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

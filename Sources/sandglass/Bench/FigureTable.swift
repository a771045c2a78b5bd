import Foundation

/// The terminal table: each figure on one line, its baseline on the next.
struct FigureTable {
    let rows: [FigureRow]

    var rendered: String {
        var lines = [pad("figure", 44) + pad("p50", 11) + pad("p90", 11) + pad("p99", 11) + pad("max", 11) + "ratio (p50)"]
        for row in rows {
            var verdict = String(format: "%.2f×", row.ratio)
            if let target = row.target, let text = row.verdict { verdict += "  (\(target.text): \(text))" }
            lines.append(pad(row.name, 44) + cells(row.distribution) + verdict)
            lines.append(pad("  baseline: " + row.baselineName, 44) + cells(row.baseline))
        }
        return lines.joined(separator: "\n")
    }

    private func cells(_ d: Distribution) -> String {
        pad(formatMicroseconds(d.p50), 11) + pad(formatMicroseconds(d.p90), 11) + pad(formatMicroseconds(d.p99), 11)
            + pad(formatMicroseconds(d.max), 11)
    }
}

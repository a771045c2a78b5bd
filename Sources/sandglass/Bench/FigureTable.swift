import Foundation

/// Figures beside their baselines: p50/p90/p99/max and the ratio of medians.
struct FigureTable {
    struct Row {
        let name: String
        let distribution: Distribution
        let baselineName: String
        let baseline: Distribution
        let target: Double?

        /// Median over baseline median.
        var ratio: Double { baseline.p50 > 0 ? distribution.p50 / baseline.p50 : .nan }

        var json: [String: Any] {
            [
                "p50_us": distribution.p50, "p90_us": distribution.p90, "p99_us": distribution.p99, "max_us": distribution.max,
                "samples": distribution.count,
                "baseline": ["name": baselineName, "p50_us": baseline.p50, "p90_us": baseline.p90, "p99_us": baseline.p99, "max_us": baseline.max],
                "ratio": ratio, "target": target ?? NSNull(),
            ]
        }
    }

    let rows: [Row]

    var rendered: String {
        var lines = [pad("figure", 36) + pad("p50", 10) + pad("p90", 10) + pad("p99", 10) + pad("max", 10) + "ratio (p50)"]
        for row in rows {
            lines.append(pad(row.name, 36) + cells(row.distribution) + verdict(row))
            lines.append(pad("  baseline: " + row.baselineName, 36) + cells(row.baseline))
        }
        return lines.joined(separator: "\n")
    }

    private func verdict(_ row: Row) -> String {
        let ratio = String(format: "%.2f×", row.ratio)
        guard let target = row.target else { return ratio }
        return ratio + (row.ratio <= target ? "  (target ≤ \(target)×: met)" : "  (target ≤ \(target)×: missed by \(String(format: "%.0f", (row.ratio / target - 1) * 100)) %)")
    }

    private func cells(_ d: Distribution) -> String {
        pad(us(d.p50), 10) + pad(us(d.p90), 10) + pad(us(d.p99), 10) + pad(us(d.max), 10)
    }

    private func us(_ value: Double) -> String {
        value >= 1000 ? String(format: "%.2f ms", value / 1000) : String(format: "%.1f µs", value)
    }

    private func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }
}

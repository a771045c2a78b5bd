import Foundation

/// What a figure must reach.
enum FigureTarget {
    /// Median over the baseline's median at most this.
    case ratio(Double)
    /// The figure's own p99 at most this many milliseconds.
    case p99Milliseconds(Double)

    var text: String {
        switch self {
        case .ratio(let r): "ratio ≤ \(trimmed(r))×"
        case .p99Milliseconds(let ms): "p99 ≤ \(trimmed(ms)) ms"
        }
    }
}

/// A latency figure beside its baseline from the same run: p50/p90/p99/max and the ratio of medians.
struct FigureRow {
    /// The key in the JSON (`spawn`, `kill`, `backgroundEvent.cold`, …).
    let key: String
    let name: String
    let distribution: Distribution
    let baselineName: String
    let baseline: Distribution
    let target: FigureTarget?
    /// Where the time goes, when it matters (a missed target above all).
    var notes: [String] = []

    /// Median over baseline median.
    var ratio: Double { baseline.p50 > 0 ? distribution.p50 / baseline.p50 : .nan }

    /// Whether the target is met (`nil`: no target).
    var met: Bool? {
        switch target {
        case .ratio(let r)?: ratio <= r
        case .p99Milliseconds(let ms)?: distribution.p99 <= ms * 1000
        case nil: nil
        }
    }

    /// `met`, or `missed by 12 %` (how far over the target, relative to it).
    var verdict: String? {
        guard let target, let met else { return nil }
        if met { return "met" }
        let over: Double = switch target {
        case .ratio(let r): ratio / r - 1
        case .p99Milliseconds(let ms): distribution.p99 / (ms * 1000) - 1
        }
        return "missed by \(String(format: "%.0f", over * 100)) %"
    }

    var json: [String: Any] {
        var object: [String: Any] = distribution.json
        object["name"] = name
        object["baseline"] = baseline.json.merging(["name": baselineName]) { a, _ in a }
        object["ratio"] = ratio.isFinite ? ratio : NSNull()
        object["target"] = target?.text ?? NSNull()
        object["met"] = met ?? NSNull()
        if !notes.isEmpty { object["notes"] = notes }
        return object
    }
}

/// A figure that is one number (a rate, a count) beside its baseline.
struct ScalarRow {
    let key: String
    let name: String
    let value: Double
    let unit: String
    let baselineName: String
    let baseline: Double?
    let target: String?
    let met: Bool?
    var notes: [String] = []

    var ratio: Double? { baseline.flatMap { $0 > 0 ? value / $0 : nil } }

    var json: [String: Any] {
        var object: [String: Any] = ["name": name, "value": value, "unit": unit, "baselineName": baselineName]
        object["baseline"] = baseline ?? NSNull()
        object["ratio"] = ratio ?? NSNull()
        object["target"] = target ?? NSNull()
        object["met"] = met ?? NSNull()
        if !notes.isEmpty { object["notes"] = notes }
        return object
    }
}

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

/// `12.3 µs`, `4.56 ms`, `1.23 s`.
func formatMicroseconds(_ value: Double) -> String {
    if value >= 1_000_000 { return String(format: "%.2f s", value / 1_000_000) }
    if value >= 1000 { return String(format: "%.2f ms", value / 1000) }
    return String(format: "%.1f µs", value)
}

/// `s` padded with spaces to `width` columns (at least one space after it).
func pad(_ s: String, _ width: Int) -> String {
    s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
}

/// `1.1`, `2`, `0.25`: a number without trailing zeros.
func trimmed(_ value: Double) -> String {
    var text = String(format: "%.2f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
}

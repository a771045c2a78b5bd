import Foundation

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
        case .p99Ratio(let r)?: distribution.p99 <= r * baseline.p99
        case nil: nil
        }
    }

    /// `met`, or `missed by 12 %` (how far over the target, relative to it).
    var verdict: String? {
        guard let target, let met else { return nil }
        if met { return "met" }
        let over: Double =
            switch target {
            case .ratio(let r): ratio / r - 1
            case .p99Milliseconds(let ms): distribution.p99 / (ms * 1000) - 1
            case .p99Ratio(let r): distribution.p99 / (r * baseline.p99) - 1
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

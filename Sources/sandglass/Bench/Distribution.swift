import Histogram

/// A latency distribution (HdrHistogram, 3 significant digits), in nanoseconds; read in microseconds.
struct Distribution {
    private var histogram = Histogram<UInt64>(highestTrackableValue: 3_600_000_000_000, numberOfSignificantValueDigits: .three)
    private(set) var samples: [UInt64] = []

    init(_ values: [UInt64] = []) {
        for value in values { record(value) }
    }

    mutating func record(_ nanoseconds: UInt64) {
        _ = histogram.record(Swift.max(nanoseconds, 1))
        samples.append(nanoseconds)
    }

    var count: Int { samples.count }
    /// The value at percentile `p` (0…100), in microseconds.
    func percentile(_ p: Double) -> Double { count == 0 ? .nan : Double(histogram.valueAtPercentile(p)) / 1e3 }
    var p50: Double { percentile(50) }
    var p90: Double { percentile(90) }
    var p99: Double { percentile(99) }
    var max: Double { count == 0 ? .nan : Double(histogram.max) / 1e3 }
    var min: Double { count == 0 ? .nan : Double(histogram.min) / 1e3 }

    /// The spread: (p90 − p50) / p50.
    var spread: Double { p50 > 0 ? (p90 - p50) / p50 : .nan }

    /// Points of the percentile distribution for a plot: (percentile, microseconds), denser
    /// towards the tail (the HdrHistogram plot's x axis is 1 / (1 − p)).
    var plotPoints: [(Double, Double)] {
        guard count > 0 else { return [] }
        var points: [(Double, Double)] = []
        var p = 0.0
        while p < 99.999 {
            points.append((p, percentile(p)))
            let remaining = 100 - p
            p += Swift.max(remaining / 12, 0.0005)
            if Double(count) * (100 - p) / 100 < 0.5 { break }
        }
        points.append((100, max))
        return points
    }

    /// p50/p90/p99/max in microseconds, the sample count and the spread, for the JSON.
    var json: [String: Any] {
        func finite(_ v: Double) -> Any { v.isFinite ? v : Double(0) }
        return [
            "p50_us": finite(p50), "p90_us": finite(p90), "p99_us": finite(p99), "max_us": finite(max),
            "samples": count, "spread": finite(spread)
        ]
    }
}

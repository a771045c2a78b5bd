import Histogram

/// A latency distribution (HdrHistogram, 3 significant digits), in nanoseconds.
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
    func percentile(_ p: Double) -> Double { Double(histogram.valueAtPercentile(p)) / 1e3 }
    /// Microseconds.
    var p50: Double { percentile(50) }
    var p90: Double { percentile(90) }
    var p99: Double { percentile(99) }
    var max: Double { Double(histogram.max) / 1e3 }
}

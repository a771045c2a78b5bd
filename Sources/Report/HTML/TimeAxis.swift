import Foundation

/// The horizontal scale shared by a run's charts: run time (ms) to x, with tick marks at round
/// steps. The page's script redraws the same attributes when the reader zooms.
struct TimeAxis {
    /// Width of the label column on the left.
    static let labelWidth = 230.0
    /// Width of the plot at zoom 1.
    static let plotWidth = 1000.0
    static let rightMargin = 16.0

    /// The run's length (ms), at least 1.
    let duration: Double

    init(duration: Double) {
        self.duration = max(duration, 1)
    }

    /// The whole chart's width.
    var width: Double { Self.labelWidth + Self.plotWidth + Self.rightMargin }

    /// The x of run time `t`.
    func x(_ t: Double) -> Double {
        Self.labelWidth + max(0, min(t, duration)) / duration * Self.plotWidth
    }

    /// The width of an interval, never under `minimum` so that short activations stay visible.
    func width(_ t0: Double, _ t1: Double, minimum: Double = 1.5) -> Double {
        max(minimum, x(t1) - x(t0))
    }

    /// Round steps (ms) between ticks; the smallest giving at most ten ticks is used.
    static let steps: [Double] = [
        1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000,
        60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 10_800_000,
        21_600_000, 43_200_000, 86_400_000, 172_800_000, 604_800_000
    ]

    /// The tick times.
    var ticks: [Double] {
        let step = Self.steps.first { duration / $0 <= 10 } ?? duration / 10
        return stride(from: 0, through: duration, by: step).map { $0 }
    }

    /// `250ms`, `12s`, `5m`, `5m30s`, `2h`, `1d6h`.
    static func label(_ ms: Double) -> String {
        let ms = ms.isFinite ? min(max(ms, -1e15), 1e15) : 0
        if ms == 0 { return "0" }
        if ms < 1000 { return "\(Int(ms))ms" }
        if ms < 60_000 {
            let s = ms / 1000
            return s == s.rounded() ? "\(Int(s))s" : String(format: "%.1fs", s)
        }
        let total = Int(ms / 1000)
        if total < 3600 { return total % 60 == 0 ? "\(total / 60)m" : "\(total / 60)m\(total % 60)s" }
        if total < 86_400 { return (total % 3600) / 60 == 0 ? "\(total / 3600)h" : "\(total / 3600)h\((total % 3600) / 60)m" }
        return (total % 86_400) / 3600 == 0 ? "\(total / 86_400)d" : "\(total / 86_400)d\((total % 86_400) / 3600)h"
    }
}

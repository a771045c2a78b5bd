import Foundation

/// What a figure must reach.
enum FigureTarget {
    /// Median over the baseline's median at most this.
    case ratio(Double)
    /// The figure's own p99 at most this many milliseconds.
    case p99Milliseconds(Double)
    /// The figure's p99 at most this many times the baseline's p99.
    case p99Ratio(Double)

    var text: String {
        switch self {
        case .ratio(let r): "ratio ≤ \(trimmed(r))×"
        case .p99Milliseconds(let ms): "p99 ≤ \(trimmed(ms)) ms"
        case .p99Ratio(let r): "p99 ≤ \(trimmed(r))× the baseline's"
        }
    }
}

import Foundation
import SandglassHost

/// What every figure of a bench run shares: where the examples are, how many samples, progress.
struct BenchContext: Sendable {
    /// The built example bundles (and the static hello-world beside them).
    let examples: String
    /// Fewer samples: a run of a minute or two.
    let quick: Bool
    /// The part of each figure's samples this run takes (`--shard`).
    let shard: Shard
    /// Progress on standard error (off with `--quiet`).
    let progressLine: ProgressLine

    init(examples: String, quick: Bool, shard: Shard = .whole, progress: ProgressLine) {
        self.examples = examples
        self.quick = quick
        self.shard = shard
        self.progressLine = progress
    }

    /// This run's share of `quick` samples with `--quick`, else of `full` (at least one).
    func samples(quick: Int, full: Int) -> Int { Swift.max(1, shard.share(of: self.quick ? quick : full)) }

    /// Reports progress of the figure being measured (`fraction` 0…1 when known).
    func progress(_ what: String, _ fraction: Double?) {
        progressLine.update(fraction, what + " · " + progressLine.elapsed)
    }

    /// Erases the progress line (terminal), before a table is printed.
    func clearProgress() {
        progressLine.finish()
    }
}

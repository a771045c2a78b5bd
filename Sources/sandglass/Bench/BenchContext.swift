import Foundation
import SandglassHost
import SandglassReport

/// What every figure of a bench run shares: where the examples are, how many samples, progress.
struct BenchContext: Sendable {
    /// The built example bundles (and the static hello-world beside them).
    let examples: String
    /// How many samples: full, `--quick` or `--smoke`.
    let size: BenchSize
    /// The part of each figure's samples this run takes (`--shard`).
    let shard: Shard
    /// Progress on standard error (off with `--quiet`).
    let progressLine: ProgressLine

    init(examples: String, size: BenchSize, shard: Shard = .whole, progress: ProgressLine) {
        self.examples = examples
        self.size = size
        self.shard = shard
        self.progressLine = progress
    }

    /// This run's share of `quick` samples with `--quick`, of `full` in a full run, of a few with
    /// `--smoke` (at least one).
    func samples(quick: Int, full: Int) -> Int {
        Swift.max(1, shard.share(of: size.choose(smoke: Swift.min(quick, 5), quick: quick, full: full)))
    }

    /// Reports progress of the figure being measured (`fraction` 0…1 when known).
    func progress(_ what: String, _ fraction: Double?) {
        progressLine.update(fraction, what + " · " + progressLine.elapsed)
    }

    /// Erases the progress line (terminal), before a table is printed.
    func clearProgress() {
        progressLine.finish()
    }
}

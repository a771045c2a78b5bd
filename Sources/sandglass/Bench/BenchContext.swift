import Foundation

/// What every figure of a bench run shares: where the examples are, how many samples, progress.
struct BenchContext: Sendable {
    /// The built example bundles (and the static hello-world beside them).
    let examples: String
    /// Fewer samples: a run of a minute or two.
    let quick: Bool
    /// Progress lines on standard error.
    let showsProgress: Bool

    /// `quick` samples with `--quick`, else `full`.
    func samples(quick: Int, full: Int) -> Int { self.quick ? quick : full }

    /// Reports progress of the figure being measured (`fraction` 0…1 when known): one line
    /// rewritten in place on a terminal; elsewhere a plain line when a figure begins.
    func progress(_ what: String, _ fraction: Double?) {
        guard showsProgress else { return }
        let text = "… " + what + (fraction.map { String(format: " %3.0f %%", $0 * 100) } ?? "")
        if isatty(2) != 0 {
            FileHandle.standardError.write(Data(("\r\u{1B}[2K" + text).utf8))
        } else if fraction == nil || fraction == 0 {
            FileHandle.standardError.write(Data((text + "\n").utf8))
        }
    }

    /// Erases the progress line (terminal), before a table is printed.
    func clearProgress() {
        guard showsProgress, isatty(2) != 0 else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}

import Foundation
import SandglassHost

/// What a command that runs a host writes besides the trace and the log: the progress line,
/// the Perfetto trace (`--trace`) and the HTML report (`--report`). `run` uses it; `stress`
/// adds the same with one line.
struct RunOutputs {
    /// When progress shows.
    enum Progress {
        /// A line on a terminal, plain lines elsewhere (`--progress`).
        case shown
        /// Only a transient line on a terminal (`--quiet`, `--json`).
        case onTerminal
        case off
    }

    private let recorder: TraceRecorder?
    private let progress: RunProgress?

    /// Starts the outputs for `host` before it starts.
    static func start(
        _ host: ExtensionHost, trace: String?, progress: Progress, duration: Duration,
        virtualClock: Bool
    ) async throws -> RunOutputs {
        let recorder = try await trace.asyncMap { path in
            do {
                return try await TraceRecorder.record(host, to: path)
            } catch {
                throw BadInput("cannot write the trace \(path): \(error.localizedDescription)")
            }
        }
        var follower: RunProgress?
        if progress != .off {
            let line = ProgressLine("run", enabled: true, plainWhenNotTerminal: progress == .shown)
            follower = RunProgress(line, duration: duration, virtualClock: virtualClock)
            await follower?.follow(host)
        }
        return RunOutputs(recorder: recorder, progress: follower)
    }

    /// After the host has shut down: erases the progress line, closes the trace and writes
    /// the report.
    func finish(_ host: ExtensionHost, report: String?, log: String?) async throws {
        progress?.stop()
        try await recorder?.finish()
        if let report {
            let run = RunLog(source: log ?? "run", events: await host.events())
            try HTMLReport(runs: [run]).write(to: report)
        }
    }
}

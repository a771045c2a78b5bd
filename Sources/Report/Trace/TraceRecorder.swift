import SandglassHost

/// Writes a running host's trace as it goes: `run --trace F.json` (and any command that runs
/// a host) adds it with one line, and finishes it after the host has shut down.
///
/// ```swift
/// let trace = try await TraceRecorder.record(host, to: "run.trace.json")
/// …
/// await host.shutdown()
/// try await trace.finish()
/// ```
public final class TraceRecorder: Sendable {
    private let task: Task<Void, any Error>

    private init(task: Task<Void, any Error>) {
        self.task = task
    }

    /// Starts writing `host`'s events (from the start of its run) to the trace at `path`.
    public static func record(_ host: ExtensionHost, to path: String) async throws -> TraceRecorder {
        let trace = try PerfettoTrace(path: path)
        let stream = await host.eventStream(replay: true)
        let task = Task {
            for await event in stream { trace.write(event) }
            try trace.close()
        }
        return TraceRecorder(task: task)
    }

    /// Waits until the host's event stream has ended (the host shut down) and the trace is closed.
    public func finish() async throws {
        try await task.value
    }
}

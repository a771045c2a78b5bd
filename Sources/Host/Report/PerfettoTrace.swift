import Foundation

/// A Chrome / Perfetto trace-event file (JSON array format), written as events arrive: a run
/// that dies leaves a file without its closing bracket, which Perfetto and `chrome://tracing`
/// still open. Made by ``TraceEventConverter``.
///
/// ```swift
/// let trace = try PerfettoTrace(path: "run.trace.json")
/// for event in events { trace.write(event) }
/// try trace.close()
/// ```
public final class PerfettoTrace {
    private let handle: FileHandle
    private var converter: TraceEventConverter
    private var first = true
    private var closed = false
    /// Where the trace is written.
    public let path: String

    /// Creates (or empties) the trace file at `path`.
    public init(path: String, converter: TraceEventConverter = TraceEventConverter()) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data("[\n".utf8)) else {
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [
                    NSFilePathErrorKey: path,
                    NSLocalizedDescriptionKey: "cannot create the trace file \(path)"
                ])
        }
        self.path = path
        self.converter = converter
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
    }

    /// Adds the trace events of `event`.
    public func write(_ event: HostEvent) {
        append(converter.convert(event))
    }

    /// Ends the slices still open, the JSON array and the file.
    public func close() throws {
        guard !closed else { return }
        closed = true
        append(converter.finish())
        try handle.write(contentsOf: Data("\n]\n".utf8))
        try handle.close()
    }

    private func append(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        var text = ""
        for line in lines {
            if !first { text += ",\n" }
            first = false
            text += line
        }
        try? handle.write(contentsOf: Data(text.utf8))
    }

    /// The trace of `runs` (read back from their logs) at `path`; merged runs keep their pids
    /// apart and name their shard on the host's track.
    public static func write(_ runs: [RunLog], to path: String) throws {
        var trace: PerfettoTrace?
        for (index, run) in runs.enumerated() {
            let converter = TraceEventConverter(
                pidOffset: runs.count > 1 ? Int64(index) * 10_000_000 : 0,
                label: runs.count > 1 ? run.label : nil)
            if let trace {
                try trace.switchRun(converter)
            } else {
                trace = try PerfettoTrace(path: path, converter: converter)
            }
            for event in run.events { trace!.write(event) }
        }
        if trace == nil { trace = try PerfettoTrace(path: path) }
        try trace!.close()
    }

    /// Ends the slices of the run so far and goes on with the next run's converter.
    private func switchRun(_ next: TraceEventConverter) throws {
        append(converter.finish())
        converter = next
    }
}

import Foundation
import Testing

@testable import SandglassHost

/// The Perfetto trace: valid JSON, a track per extension process, activations as complete
/// slices on their process, kills as process-wide instants.
@Suite("Perfetto trace")
struct TraceEventTests {
    static func parse(_ path: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    }

    @Test("tracks and slices match the log")
    func matchesLog() throws {
        let events = ReportFixture.events()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-trace-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("run.trace.json").path
        try PerfettoTrace.write([RunLog(source: "run", events: events)], to: path)
        let trace = try Self.parse(path)

        let processNames = trace.filter { $0["ph"] as? String == "M" && $0["name"] as? String == "process_name" }
        let tracked = Set(processNames.compactMap { $0["pid"] as? Int })
        #expect(tracked == [4000, 101, 201, 202], "the host and one track per extension process")

        let activations = trace.filter { $0["ph"] as? String == "X" && $0["cat"] as? String == "activation" }
        #expect(activations.count == events.filter { $0.kind == .activationEnd }.count)
        let killed = try #require(activations.first { ($0["args"] as? [String: Any])?["outcome"] as? String == "killed" })
        #expect(killed["pid"] as? Int == 201)
        #expect(killed["ts"] as? Double == 30_000 || killed["ts"] as? Int == 30_000, "ts in microseconds of the run clock")
        #expect((killed["dur"] as? NSNumber)?.doubleValue == 1_001_000)
        #expect(killed["name"] as? String == "timeline Feed")

        // The overlapping snapshot of pid 101 is on a second activations thread.
        let tids = Set(activations.filter { $0["pid"] as? Int == 101 }.compactMap { $0["tid"] as? Int })
        #expect(tids.count == 2)

        let kills = trace.filter { $0["ph"] as? String == "i" && ($0["name"] as? String)?.hasPrefix("killed: ") == true }
        #expect(kills.count == events.filter { $0.kind == .killed }.count)
        #expect(kills.allSatisfy { $0["s"] as? String == "p" })

        let lifetimes = trace.filter { $0["ph"] as? String == "X" && $0["cat"] as? String == "process" }
        #expect(Set(lifetimes.compactMap { $0["pid"] as? Int }) == [101, 201, 202])
        let downloads = trace.filter { $0["ph"] as? String == "X" && $0["cat"] as? String == "download" }
        #expect(downloads.count == 1)
        #expect(
            trace.contains { $0["name"] as? String == "location.delivered" && $0["ph"] as? String == "i" }, "unknown events become instants"
        )
    }

    @Test("what is still open when the log ends is closed at its last event")
    func unfinished() throws {
        let events = Array(ReportFixture.events().prefix(7)) // pid 101 and 201 alive, an activation open
        var converter = TraceEventConverter()
        var lines = events.flatMap { converter.convert($0) }
        lines += converter.finish()
        let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let open = objects.filter { ($0["args"] as? [String: Any])?["outcome"] as? String == "unfinished when the log ends" }
        #expect(open.count == 1)
        #expect(objects.filter { $0["cat"] as? String == "process" }.count == 2)
    }

    @Test("merged runs keep their pids apart")
    func merged() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-trace-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("merged.json").path
        try PerfettoTrace.write(
            [
                RunLog(source: "a", events: ReportFixture.events(shard: "0/2")),
                RunLog(source: "b", events: ReportFixture.events(shard: "1/2"))
            ], to: path)
        let names = try Self.parse(path).filter { $0["name"] as? String == "process_name" }
        #expect(Set(names.compactMap { $0["pid"] as? Int }).count == 8)
    }
}

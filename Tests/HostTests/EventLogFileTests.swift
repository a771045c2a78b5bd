import Foundation
import Glibc
import Testing

@testable import SandglassHost

/// The event log's file, as an operator's tools meet it.
@Suite("Event log file")
struct EventLogFileTests {
    @Test("a log rotated by copying and truncating it (logrotate's copytruncate) goes on from its new end, not past a hole")
    func copyTruncate() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID().uuidString.prefix(8)).jsonl").path
        defer { unlink(path) }
        let file = try JSONLinesFile(path: path)
        defer { file.close() }
        file.write(HostEvent(t: 1, name: "run.start", fields: [("detail", .string(String(repeating: "x", count: 4096)))]))
        #expect(truncate(path, 0) == 0)
        file.write(HostEvent(t: 2, name: "run.end", fields: []))
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data.first == UInt8(ascii: "{"), "the rotated log starts with \(data.prefix(8).map { $0 }) (a hole of NULs)")
        #expect(String(decoding: data, as: UTF8.self).split(separator: "\n").count == 1)
    }

    @Test("a log that cannot be written names its path and why")
    func unwritable() {
        #expect {
            _ = try JSONLinesFile(path: "/nonexistent-\(UUID().uuidString.prefix(8))/run.jsonl")
        } throws: { error in
            let text = error.localizedDescription
            return text.contains("cannot write the event log /nonexistent-") && text.contains("No such file")
        }
    }
}

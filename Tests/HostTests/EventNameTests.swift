import Foundation
import Testing

@testable import SandglassHost

/// The event log's names are a contract (issue #15): every name has a case, the reference page
/// in the DocC catalog documents each one, and a log line reads back to its case.
@Suite("Event names")
struct EventNameTests {
    private var reference: String {
        get throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            return try String(contentsOf: root.appendingPathComponent("Sources/Host/SandglassHost.docc/EventLog.md"), encoding: .utf8)
        }
    }

    @Test("the event-log reference documents every event name, and names no event that does not exist")
    func referenceListsEveryName() throws {
        let page = try reference
        let undocumented = EventName.allCases.filter { !page.contains("- term `\($0.rawValue)` (``EventName/\($0)``)") }
        #expect(undocumented.isEmpty, "EventLog.md lacks \(undocumented.map(\.rawValue))")
        let listed = page.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("- term `") else { return nil }
            return line.dropFirst(8).split(separator: "`").first.map(String.init)
        }
        #expect(Set(listed).subtracting(EventName.allCases.map(\.rawValue)).isEmpty, "EventLog.md lists names that are not events")
        #expect(listed.count == Set(listed).count, "a name is listed twice")
    }

    @Test("names are unique and a line of the log reads back to its case")
    func namesRoundTrip() throws {
        #expect(Set(EventName.allCases.map(\.rawValue)).count == EventName.allCases.count)
        for name in EventName.allCases {
            let line = HostEvent(t: 1.5, name: name, fields: [("bundle", .string("com.example.widget"))]).jsonLine
            let read = try #require(HostEvent(jsonLine: line))
            #expect(read.kind == name)
        }
        #expect(HostEvent(t: 0, name: "some.future.event", fields: []).kind == nil)
    }
}

import Foundation
@testable import SandglassHost
import SandglassIPC
import Testing

@Suite("Journal")
struct JournalTests {
    private func withJournal(_ body: (String) throws -> Void) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try body(dir + "/journal.sqlite")
    }

    private func session(_ identifier: String = "feed") -> SessionRecord {
        SessionRecord(app: "com.example.app", identifier: identifier, bundle: "com.example.app.widget", sendsLaunchEvents: true,
                      isDiscretionary: false, requestTimeout: 60, resourceTimeout: 3600)
    }

    private func task(_ session: String = "feed") -> TaskRecord {
        TaskRecord(app: "com.example.app", session: session, bundle: "com.example.app.widget", taskIdentifier: 0, kind: .download,
                   state: .suspended, request: HTTPRequestPayload(url: "http://127.0.0.1/x"), taskDescription: "token",
                   expectsSend: 0, expectsReceive: 100, createdAt: 0)
    }

    @Test("task identifiers are per session, stable and increasing; the journal is in WAL mode")
    func taskIdentifiers() throws {
        try withJournal { path in
            let journal = try Journal(path: path)
            try journal.saveSession(session("a"))
            try journal.saveSession(session("b"))
            #expect(try journal.createTask(task("a")).taskIdentifier == 1)
            #expect(try journal.createTask(task("a")).taskIdentifier == 2)
            #expect(try journal.createTask(task("b")).taskIdentifier == 1)
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        }
    }

    @Test("events survive reopening until acknowledged, and count their deliveries")
    func eventsSurvive() throws {
        try withJournal { path in
            var ids: [Int64] = []
            do {
                let journal = try Journal(path: path)
                try journal.saveSession(session())
                var record = try journal.createTask(task())
                record.state = .finished
                let events = try journal.finish(record, events: [
                    EventRecord(app: record.app, session: "feed", bundle: record.bundle, taskIdentifier: 1, kind: .downloadFinished, file: "/f", createdAt: 1),
                    EventRecord(app: record.app, session: "feed", bundle: record.bundle, taskIdentifier: 1, kind: .taskCompleted, createdAt: 1),
                ])
                ids = events.compactMap(\.id)
                try journal.markDelivered(ids)
            }
            let reopened = try Journal(path: path)
            let pending = try reopened.pendingEvents(app: "com.example.app", session: "feed")
            #expect(pending.map(\.kind) == [.downloadFinished, .taskCompleted])
            #expect(pending.allSatisfy { $0.deliveries == 1 })
            #expect(try reopened.task(app: "com.example.app", session: "feed", taskIdentifier: 1)?.taskDescription == "token")
            #expect(try reopened.acknowledge(ids) == 2)
            #expect(try reopened.eventCount() == 0)
        }
    }

    @Test("a task of an unknown session is refused")
    func unknownSession() throws {
        try withJournal { path in
            let journal = try Journal(path: path)
            #expect(throws: JournalError.self) { try journal.createTask(task("nope")) }
        }
    }
}

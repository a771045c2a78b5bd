import Foundation
import SandglassIPC
import Testing

@testable import SandglassHost

@Suite("Journal")
struct JournalTests {
    private func withJournal(_ body: (String) throws -> Void) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try body(dir + "/journal.sqlite")
    }

    private func session(_ identifier: String = "feed") -> SessionRecord {
        SessionRecord(
            app: "com.example.app", identifier: identifier, bundle: "com.example.app.widget", sendsLaunchEvents: true,
            isDiscretionary: false, requestTimeout: 60, resourceTimeout: 3600)
    }

    private func task(_ session: String = "feed") -> TaskRecord {
        TaskRecord(
            app: "com.example.app", session: session, bundle: "com.example.app.widget", taskIdentifier: 0, kind: .download,
            state: .suspended, request: HTTPRequestPayload(url: "http://127.0.0.1/x"), taskDescription: "token",
            expectsSend: 0, expectsReceive: 100, createdAt: 0)
    }

    /// A journal with a session, a task and what `fill` adds, as `migrations` of GRDB's migrator
    /// left it: their names in its `grdb_migrations` ledger, no `user_version`, and the schema of
    /// the later migrations taken away again. Returns the file.
    private func writtenByGRDB(_ path: String, migrations: Int, _ fill: (Journal) throws -> Void = { _ in }) throws -> SQLiteDatabase {
        do {
            let journal = try Journal(path: path)
            try journal.saveSession(session())
            _ = try journal.createTask(task())
            try fill(journal)
        }
        let file = try SQLiteDatabase(path: path)
        if migrations < 4 {
            try file.execute(
                """
                DROP TRIGGER task_response_inserted; DROP TRIGGER task_response_updated; DROP TRIGGER task_response_deleted;
                DROP TABLE app_usage
                """)
        }
        if migrations < 3 { try file.execute(#"ALTER TABLE "task" DROP COLUMN "requestBody""#) }
        if migrations < 2 { try file.execute("DROP INDEX task_by_state") }
        try file.execute("PRAGMA user_version = 0; CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        for migration in JournalSchema.migrations.prefix(migrations) {
            try file.run("INSERT INTO grdb_migrations VALUES (?)", [.text(migration.name)])
        }
        return file
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

    @Test("progress is recorded in its two columns; the rest of the task stays as it was")
    func progress() throws {
        try withJournal { path in
            let journal = try Journal(path: path)
            try journal.saveSession(session())
            var created = try journal.createTask(task())
            created.state = .running
            try journal.update(created)
            let id = try #require(created.id)
            try journal.recordProgress(id: id, received: 40, expected: 100)
            let stored = try #require(try journal.task(id: id))
            #expect(stored.bytesReceived == 40 && stored.bytesExpected == 100)
            #expect(stored.state == .running && stored.request == created.request && stored.taskDescription == "token")
            #expect(stored.expectsReceive == 100 && stored.taskIdentifier == created.taskIdentifier)
        }
    }

    @Test("a session's load counts the bytes of its tasks' requests and descriptions, not their characters")
    func loadInBytes() throws {
        try withJournal { path in
            let journal = try Journal(path: path)
            try journal.saveSession(session())
            var task = task()
            task.taskDescription = String(repeating: "🦊", count: 1000)
            _ = try journal.createTask(task)
            let load = try journal.liveTaskLoad(app: "com.example.app", session: "feed")
            #expect(load.count == 1)
            #expect(load.bytes >= 4000, "\(load.bytes) bytes counted for a description of 4,000")
        }
    }

    @Test(
        "a request's body is kept as its bytes: a session's load counts no more than a frame would hold, and the body reads back whole"
    )
    func bodyAsBytes() throws {
        // Kept as JSON, a body of 0xFF bytes was an array of numbers four times its size, which
        // every resume, cancel and progress tick decoded on the loop: 260 ms for this one.
        try withJournal { path in
            let journal = try Journal(path: path)
            try journal.saveSession(session())
            var task = task()
            let body = [UInt8](repeating: 0xFF, count: 400_000)
            task.request.body = body
            let created = try journal.createTask(task)
            let load = try journal.liveTaskLoad(app: "com.example.app", session: "feed")
            #expect(load.bytes >= body.count && load.bytes < body.count + 1024, "\(load.bytes) bytes counted for a body of \(body.count)")
            let id = try #require(created.id)
            let stored = try #require(try journal.task(id: id))
            #expect(stored.request.body == body && stored.request.url == task.request.url)
            var bodyless = task
            bodyless.request.body = nil
            let plain = try journal.createTask(bodyless)
            let plainID = try #require(plain.id)
            #expect(try journal.task(id: plainID)?.request.body == nil, "no body is not an empty one")
            var empty = task
            empty.request.body = []
            let emptyID = try #require(try journal.createTask(empty).id)
            #expect(try journal.task(id: emptyID)?.request.body == [], "an empty body is not no body")
        }
    }

    @Test("an app's kept responses are counted as its tasks are written, ended, acknowledged and forgotten; another app's apart")
    func responseBytes() throws {
        try withJournal { path in
            let journal = try Journal(path: path)
            try journal.saveSession(session())
            var record = try journal.createTask(task())
            #expect(try journal.responseBytes(app: "com.example.app") == 0)
            record.state = .running
            record.response = HTTPResponsePayload(
                url: "http://127.0.0.1/x", statusCode: 200, headers: [HeaderField("ETag", String(repeating: "e", count: 4000))],
                expectedContentLength: 10)
            try journal.update(record)
            let one = try journal.responseBytes(app: "com.example.app")
            #expect(one > 4000 && one < 4200, "\(one)")
            try journal.update(record)
            #expect(try journal.responseBytes(app: "com.example.app") == one, "written again, counted once")
            #expect(try journal.responseBytes(app: "com.example.other") == 0)
            record.state = .finished
            let events = try journal.finish(
                record,
                events: [
                    EventRecord(
                        app: record.app, session: "feed", bundle: record.bundle, taskIdentifier: record.taskIdentifier,
                        kind: .taskCompleted, response: record.response, createdAt: 1)
                ])
            #expect(try journal.responseBytes(app: "com.example.app") == one)
            _ = try journal.acknowledge(events.compactMap(\.id))
            #expect(try journal.task(id: try #require(record.id)) == nil)
            #expect(try journal.responseBytes(app: "com.example.app") == 0, "forgotten with its task")
        }
    }

    @Test(
        "a journal of version 2 opens as it is: its requests' bodies, kept as JSON, read back; its apps' kept responses are counted"
    )
    func fromVersion2() throws {
        try withJournal { path in
            let response = #"{"expectedContentLength":3,"headers":[],"statusCode":200,"url":"http:\/\/127.0.0.1\/x"}"#
            do {
                let file = try SQLiteDatabase(path: path)
                for migration in JournalSchema.migrations.prefix(2) { try migration.apply(file) }
                try file.execute("PRAGMA user_version = 2")
                try file.run(
                    """
                    INSERT INTO session (app, identifier, bundle, sendsLaunchEvents, isDiscretionary, requestTimeout, resourceTimeout)
                    VALUES ('com.example.app', 'feed', 'com.example.app.widget', 1, 0, 60, 3600)
                    """)
                try file.run(
                    """
                    INSERT INTO task (app, session, bundle, taskIdentifier, kind, state, request, expectsSend, expectsReceive, response, createdAt)
                    VALUES ('com.example.app', 'feed', 'com.example.app.widget', 1, 1, 'running', ?, 0, 0, ?, 0)
                    """,
                    [
                        .text(#"{"body":[1,2,255],"headers":[],"method":"POST","timeout":0,"url":"http:\/\/127.0.0.1\/x"}"#),
                        .text(response)
                    ])
            }
            let reopened = try Journal(path: path)
            let stored = try reopened.task(app: "com.example.app", session: "feed", taskIdentifier: 1)
            #expect(stored?.request.body == [1, 2, 255] && stored?.request.method == "POST")
            #expect(stored?.response?.statusCode == 200)
            #expect(try reopened.responseBytes(app: "com.example.app") == response.utf8.count, "counted at the migration")
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
                let events = try journal.finish(
                    record,
                    events: [
                        EventRecord(
                            app: record.app, session: "feed", bundle: record.bundle, taskIdentifier: 1, kind: .downloadFinished, file: "/f",
                            createdAt: 1),
                        EventRecord(
                            app: record.app, session: "feed", bundle: record.bundle, taskIdentifier: 1, kind: .taskCompleted, createdAt: 1)
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
            #expect(try reopened.task(app: "com.example.app", session: "feed", taskIdentifier: 1) == nil, "forgotten with its events")
        }
    }

    @Test("an ended task is told to an attaching process while its events wait, then forgotten: the journal holds only work in flight")
    func endedTasks() throws {
        try withJournal { path in
            let journal = try Journal(path: path)
            try journal.saveSession(session())
            var live = try journal.createTask(task())
            live.state = .running
            try journal.update(live)
            for round in 0..<50 {
                var ended = try journal.createTask(task())
                ended.state = round % 2 == 0 ? .finished : .failed
                let events = try journal.finish(
                    ended,
                    events: [
                        EventRecord(
                            app: ended.app, session: "feed", bundle: ended.bundle, taskIdentifier: ended.taskIdentifier,
                            kind: .taskCompleted, createdAt: 1)
                    ])
                let attachable = try journal.attachableTasks(app: "com.example.app", session: "feed")
                #expect(attachable.map(\.taskIdentifier) == [live.taskIdentifier, ended.taskIdentifier])
                #expect(attachable.last?.snapshot.state == .completed && attachable.last?.taskDescription == "token")
                #expect(
                    try journal.liveTasks(app: "com.example.app", session: "feed").map(\.taskIdentifier) == [live.taskIdentifier],
                    "getAllTasks lists what has not ended")
                try journal.acknowledge(events.compactMap(\.id))
            }
            #expect(try journal.taskCount() == 1, "50 ended and acknowledged tasks leave nothing behind")
            // Invalidated with its tasks cancelled: the dropped events take their ended tasks along.
            live.state = .cancelled
            _ = try journal.finish(
                live,
                events: [
                    EventRecord(
                        app: live.app, session: "feed", bundle: live.bundle,
                        taskIdentifier: live.taskIdentifier, kind: .taskCompleted, createdAt: 2)
                ])
            #expect(try journal.dropEvents(app: "com.example.app", session: "feed") == 1)
            #expect(try journal.taskCount() == 0)
            #expect(try journal.createTask(task()).taskIdentifier == 52, "identifiers are never reused")
        }
    }

    @Test("a journal written before ended tasks were forgotten sheds the acknowledged ones when it is opened")
    func migratesOldJournal() throws {
        try withJournal { path in
            // As the first version left it: finished tasks whose events were acknowledged, no index.
            let old = try writtenByGRDB(path, migrations: 1) { journal in
                var waiting = try journal.createTask(task())
                waiting.state = .finished
                _ = try journal.finish(
                    waiting,
                    events: [
                        EventRecord(
                            app: waiting.app, session: "feed", bundle: waiting.bundle,
                            taskIdentifier: waiting.taskIdentifier, kind: .taskCompleted, createdAt: 1)
                    ])
            }
            for identifier in 10..<20 {
                try old.run(
                    """
                    INSERT INTO task (app, session, bundle, taskIdentifier, kind, state, request, expectsSend, expectsReceive, createdAt)
                    VALUES ('com.example.app', 'feed', 'com.example.app.widget', ?, 1, 'finished', '{"url":"http://127.0.0.1/x","method":"GET","headers":[]}', 0, 0, 0)
                    """, [.integer(Int64(identifier))])
            }
            let reopened = try Journal(path: path)
            #expect(try reopened.taskCount() == 2, "the suspended task and the ended one whose event waits")
            #expect(try reopened.attachableTasks(app: "com.example.app", session: "feed").map(\.taskIdentifier) == [1, 2])
        }
    }

    @Test("a journal of a newer version is refused with what to do; one written by GRDB's migrator opens as it is")
    func versions() throws {
        try withJournal { path in
            _ = try writtenByGRDB(path, migrations: JournalSchema.migrations.count)
            #expect(try Journal(path: path).liveTasks(app: "com.example.app", session: "feed").count == 1)
            try SQLiteDatabase(path: path).execute("PRAGMA user_version = 9")
            let error = #expect(throws: JournalError.self) { try Journal(path: path) }
            #expect(
                error?.description
                    == "\(path): the journal is of version 9, newer than this host's \(JournalSchema.migrations.count): use the newer host, or a new data directory"
            )
        }
    }

    @Test("the journal is never opened through a symbolic link, and the error names the file")
    func refusesSymbolicLink() throws {
        try withJournal { path in
            let elsewhere = path + ".elsewhere"
            // Empty: SQLite would take it as a new database and write its tables there.
            _ = FileManager.default.createFile(atPath: elsewhere, contents: Data())
            #expect(symlink(elsewhere, path) == 0)
            let error = #expect(throws: SQLiteError.self) { try Journal(path: path) }
            #expect(error?.description.hasPrefix(path + ":") == true)
            let size = try FileManager.default.attributesOfItem(atPath: elsewhere)[.size] as? Int
            #expect(size == 0, "the link's target untouched")
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

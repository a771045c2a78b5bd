import Foundation
import SandglassIPC

/// The durable record of background URL sessions, their tasks, and the session events not yet
/// acknowledged — a SQLite file in WAL mode in the host's data directory. What is written here
/// survives the death of the extension and of the host: a restarted host resumes unfinished
/// downloads and redelivers every unacknowledged event.
///
/// A task that has ended stays while its events wait (a relaunched extension is told of it with
/// its request and `taskDescription`, as the delegate sees them on Apple's system) and is
/// forgotten with their acknowledgement: the journal holds the work in flight, not a history
/// (that is the event log's), so a long-running host does not grow it.
///
/// Writes are small transactions with `synchronous = NORMAL`: committed data survives a crash
/// of the host process (the WAL is in the page cache), which is the failure this models.
final class Journal: Sendable {
    /// The one connection; every call holds ``lock`` around its use.
    private let connection: SQLiteDatabase
    private let lock = NSLock()
    /// The SQLite file.
    let path: String

    init(path: String) throws {
        self.path = path
        // It holds every app's requests, headers and bodies included: the host's alone. SQLite
        // gives its -wal and -shm files the database's mode.
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd >= 0 {
            _ = fchmod(fd, 0o600)
            close(fd)
        }
        for sidecar in ["-wal", "-shm"] { _ = chmod(path + sidecar, 0o600) }
        let database = try SQLiteDatabase(path: path)
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000")
        try JournalSchema.migrate(database)
        connection = database
    }

    /// Runs `body` on the connection, alone.
    private func withConnection<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(connection)
    }

    /// Runs `body` on the connection, alone, in one transaction.
    private func inTransaction<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        try withConnection { database in try database.transaction { try body(database) } }
    }

    // MARK: sessions

    /// Records (or updates) a background session; a session recorded as it is costs a read,
    /// not a write (a relaunched extension attaches it again on every delivery).
    func saveSession(_ session: SessionRecord) throws {
        try withConnection { database in
            if var existing = try Self.session(database, app: session.app, identifier: session.identifier) {
                let stored = existing
                existing.bundle = session.bundle
                existing.sendsLaunchEvents = session.sendsLaunchEvents
                existing.isDiscretionary = session.isDiscretionary
                existing.requestTimeout = session.requestTimeout
                existing.resourceTimeout = session.resourceTimeout
                existing.sharedContainer = session.sharedContainer
                guard existing != stored else { return }
                try database.transaction { try Self.updateSession(database, existing) }
            } else {
                try database.transaction { try Self.insert(database, session) }
            }
        }
    }

    /// How many sessions the journal holds for `app`, once those that hold no task and no
    /// event — but the ones in `keeping` (attached now) — are forgotten.
    func sessionCount(app: String, forgettingIdleBut keeping: Set<String>) throws -> Int {
        try withConnection { database in
            let kept = keeping.sorted()
            _ = try database.rows(
                """
                DELETE FROM session WHERE app = ?
                AND identifier NOT IN (SELECT session FROM task WHERE app = ?)
                AND identifier NOT IN (SELECT session FROM event WHERE app = ?)
                AND identifier NOT IN (\(Array(repeating: "?", count: kept.count).joined(separator: ", ")))
                """, [.text(app), .text(app), .text(app)] + kept.map { .text($0) })
            let row = try database.rows("SELECT COUNT(*) AS count FROM session WHERE app = ?", [.text(app)]).first
            return Int(row?.integer("count") ?? 0)
        }
    }

    func session(app: String, identifier: String) throws -> SessionRecord? {
        try withConnection { database in try Self.session(database, app: app, identifier: identifier) }
    }

    private static func session(_ database: SQLiteDatabase, app: String, identifier: String) throws -> SessionRecord? {
        try database.rows("SELECT * FROM session WHERE app = ? AND identifier = ?", [.text(app), .text(identifier)])
            .first.map(SessionRecord.init(row:))
    }

    private static func updateSession(_ database: SQLiteDatabase, _ session: SessionRecord) throws {
        try update(database, session, key: "app = ? AND identifier = ?", [.text(session.app), .text(session.identifier)])
    }

    // MARK: tasks

    /// Records a new task and gives it the session's next task identifier.
    func createTask(_ task: TaskRecord) throws -> TaskRecord {
        try inTransaction { database in
            guard var session = try Self.session(database, app: task.app, identifier: task.session) else {
                throw JournalError.unknownSession(task.session)
            }
            var record = task
            record.taskIdentifier = session.nextTaskIdentifier
            session.nextTaskIdentifier += 1
            try Self.updateSession(database, session)
            record.id = try Self.insert(database, record)
            return record
        }
    }

    func task(id: Int64) throws -> TaskRecord? {
        try withConnection { database in
            try database.rows("SELECT * FROM task WHERE id = ?", [.integer(id)]).first.map(TaskRecord.init(row:))
        }
    }

    func task(app: String, session: String, taskIdentifier: Int) throws -> TaskRecord? {
        try withConnection { database in
            try database.rows(
                "SELECT * FROM task WHERE app = ? AND session = ? AND taskIdentifier = ?",
                [.text(app), .text(session), .integer(Int64(taskIdentifier))]
            ).first.map(TaskRecord.init(row:))
        }
    }

    /// The tasks of a session that have not ended (what `getAllTasks` lists), oldest first.
    func liveTasks(app: String, session: String) throws -> [TaskRecord] {
        try withConnection { database in
            try database.rows(
                "SELECT * FROM task WHERE app = ? AND session = ? AND state IN (\(TaskRecord.State.sqlList(TaskRecord.State.live))) ORDER BY id",
                [.text(app), .text(session)]
            ).map(TaskRecord.init(row:))
        }
    }

    /// How many tasks of a session have not ended or have events waiting (what a relaunch's
    /// `sessionAttached` carries), and the bytes of their journaled requests and descriptions
    /// (their JSON and their bodies' bytes: never fewer than they take in a frame; bytes, not
    /// characters).
    func liveTaskLoad(app: String, session: String) throws -> (count: Int, bytes: Int) {
        try withConnection { database in
            let row = try database.rows(
                """
                SELECT COUNT(*) AS count,
                    COALESCE(SUM(LENGTH(CAST(request AS BLOB)) + COALESCE(LENGTH(requestBody), 0)
                        + COALESCE(LENGTH(CAST(taskDescription AS BLOB)), 0)), 0) AS bytes
                FROM task WHERE app = ? AND session = ?
                AND (state IN (\(TaskRecord.State.sqlList(TaskRecord.State.live)))
                     OR taskIdentifier IN (SELECT taskIdentifier FROM event WHERE app = ? AND session = ?))
                """,
                [.text(app), .text(session), .text(app), .text(session)]
            ).first
            return (Int(row?.integer("count") ?? 0), Int(row?.integer("bytes") ?? 0))
        }
    }

    /// The bytes of the responses `app`'s tasks keep in the journal (their events keep at
    /// most two copies of each, and are forgotten with them).
    func responseBytes(app: String) throws -> Int {
        try withConnection { database in
            let row = try database.rows(#"SELECT "responseBytes" FROM "app_usage" WHERE "app" = ?"#, [.text(app)]).first
            return Int(row?.integer("responseBytes") ?? 0)
        }
    }

    /// What a process that attaches the session is told of: its live tasks and the ended ones
    /// whose events are still to be acknowledged (their delegate calls carry those tasks).
    func attachableTasks(app: String, session: String) throws -> [TaskRecord] {
        try withConnection { database in
            try database.rows(
                """
                SELECT * FROM task WHERE app = ? AND session = ?
                AND (state IN (\(TaskRecord.State.sqlList(TaskRecord.State.live)))
                     OR taskIdentifier IN (SELECT taskIdentifier FROM event WHERE app = ? AND session = ?))
                ORDER BY id
                """, [.text(app), .text(session), .text(app), .text(session)]
            ).map(TaskRecord.init(row:))
        }
    }

    /// Tasks in the journal, live or ended (for invariants and tests).
    func taskCount() throws -> Int {
        try withConnection { database in try Self.count(database, "SELECT COUNT(*) AS count FROM task") }
    }

    /// Tasks that were waiting or running when the host last stopped.
    func unfinishedTasks() throws -> [TaskRecord] {
        try withConnection { database in
            try database.rows(
                "SELECT * FROM task WHERE state IN (\(TaskRecord.State.sqlList([.waiting, .running]))) ORDER BY id"
            ).map(TaskRecord.init(row:))
        }
    }

    func update(_ task: TaskRecord) throws {
        try inTransaction { database in try Self.update(database, task) }
    }

    /// Records a task's progress: its two columns, not the whole row.
    func recordProgress(id: Int64, received: Int64, expected: Int64) throws {
        try inTransaction { database in
            try database.run(
                "UPDATE \(TaskRecord.table) SET bytesReceived = ?, bytesExpected = ? WHERE id = ?",
                [.integer(received), .integer(expected), .integer(id)])
        }
    }

    private static func update(_ database: SQLiteDatabase, _ task: TaskRecord) throws {
        guard let id = task.id else { throw JournalError.unsavedTask(task.taskIdentifier) }
        try update(database, task, key: "id = ?", [.integer(id)])
    }

    /// Marks the task finished (or failed) and records its events, in one transaction.
    func finish(_ task: TaskRecord, events: [EventRecord]) throws -> [EventRecord] {
        try inTransaction { database in
            try Self.update(database, task)
            var saved: [EventRecord] = []
            for var event in events {
                event.id = try Self.insert(database, event)
                saved.append(event)
            }
            return saved
        }
    }

    // MARK: events

    /// The events of a session not yet acknowledged, in order: the first `limit` of them.
    func pendingEvents(app: String, session: String, limit: Int = .max) throws -> [EventRecord] {
        try withConnection { database in
            try database.rows(
                "SELECT * FROM event WHERE app = ? AND session = ? ORDER BY id LIMIT ?",
                [.text(app), .text(session), .integer(Int64(limit))]
            ).map(EventRecord.init(row:))
        }
    }

    /// How many events of a session are not yet acknowledged.
    func pendingEventCount(app: String, session: String) throws -> Int {
        try withConnection { database in
            try database.rows("SELECT COUNT(*) AS count FROM event WHERE app = ? AND session = ?", [.text(app), .text(session)])
                .first?.integer("count").map(Int.init) ?? 0
        }
    }

    /// Every (app, session, bundle) with events waiting.
    func sessionsWithPendingEvents() throws -> [(app: String, session: String, bundle: String)] {
        try withConnection { database in
            try database.rows("SELECT app, session, bundle, MIN(id) AS first FROM event GROUP BY app, session, bundle ORDER BY first")
                .map { row in (app: row.text("app") ?? "", session: row.text("session") ?? "", bundle: row.text("bundle") ?? "") }
        }
    }

    /// Counts one more delivery of `ids`.
    func markDelivered(_ ids: [Int64]) throws {
        guard !ids.isEmpty else { return }
        try inTransaction { database in
            for id in ids { try database.run("UPDATE event SET deliveries = deliveries + 1 WHERE id = ?", [.integer(id)]) }
        }
    }

    /// Drops acknowledged events, and the ended tasks that have no event left; returns how many
    /// events went.
    @discardableResult
    func acknowledge(_ ids: [Int64]) throws -> Int {
        guard !ids.isEmpty else { return 0 }
        return try inTransaction { database in
            var sessions: [(String, String)] = []
            var count = 0
            for id in ids {
                for row in try database.rows("SELECT app, session FROM event WHERE id = ?", [.integer(id)]) {
                    let session = (row.text("app") ?? "", row.text("session") ?? "")
                    if !sessions.contains(where: { $0 == session }) { sessions.append(session) }
                }
                count += try database.run("DELETE FROM event WHERE id = ?", [.integer(id)])
            }
            for (app, session) in sessions { try Self.forgetEndedTasks(database, app: app, session: session) }
            return count
        }
    }

    /// Drops every pending event of a session (it was invalidated with its tasks cancelled), and
    /// its ended tasks.
    @discardableResult
    func dropEvents(app: String, session: String) throws -> Int {
        try inTransaction { database in
            let count = try database.run("DELETE FROM event WHERE app = ? AND session = ?", [.text(app), .text(session)])
            try Self.forgetEndedTasks(database, app: app, session: session)
            return count
        }
    }

    /// Deletes the session's ended tasks that have no event waiting.
    static func forgetEndedTasks(_ database: SQLiteDatabase, app: String, session: String) throws {
        try database.run(
            """
            DELETE FROM task WHERE app = ? AND session = ? AND state IN (\(TaskRecord.State.sqlList(TaskRecord.State.ended)))
            AND taskIdentifier NOT IN (SELECT taskIdentifier FROM event WHERE app = ? AND session = ?)
            """, [.text(app), .text(session), .text(app), .text(session)])
    }

    /// Events left in the journal (for invariants and tests).
    func eventCount() throws -> Int {
        try withConnection { database in try Self.count(database, "SELECT COUNT(*) AS count FROM event") }
    }

    // MARK: rows

    /// Inserts `record`; returns its rowid.
    @discardableResult
    private static func insert(_ database: SQLiteDatabase, _ record: some JournalRow) throws -> Int64 {
        let columns = try record.columns
        let names = columns.map(\.0).joined(separator: ", ")
        let parameters = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        try database.run("INSERT INTO \(type(of: record).table) (\(names)) VALUES (\(parameters))", columns.map(\.1))
        return database.lastInsertedRowID
    }

    private static func update(
        _ database: SQLiteDatabase, _ record: some JournalRow, key: String, _ keyValues: [SQLiteDatabase.Value]
    ) throws {
        let columns = try record.columns
        let assignments = columns.map { "\($0.0) = ?" }.joined(separator: ", ")
        try database.run("UPDATE \(type(of: record).table) SET \(assignments) WHERE \(key)", columns.map(\.1) + keyValues)
    }

    private static func count(_ database: SQLiteDatabase, _ sql: String) throws -> Int {
        Int(try database.rows(sql).first?.integer("count") ?? 0)
    }
}

/// A journal operation named something that is not there.
enum JournalError: Error, CustomStringConvertible {
    case unknownSession(String)
    case unsavedTask(Int)
    /// The file was written by a newer host.
    case newerVersion(path: String, version: Int, supported: Int)

    var description: String {
        switch self {
        case .unknownSession(let identifier): "no background session \(identifier) in the journal"
        case .unsavedTask(let identifier): "task \(identifier) has no row in the journal to update"
        case .newerVersion(let path, let version, let supported):
            "\(path): the journal is of version \(version), newer than this host's \(supported): "
                + "use the newer host, or a new data directory"
        }
    }
}

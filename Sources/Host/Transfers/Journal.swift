import Foundation
import GRDB
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
    private let database: DatabasePool
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
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        database = try DatabasePool(path: path, configuration: configuration)
        try Self.migrator.migrate(database)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "session") { t in
                t.column("app", .text).notNull()
                t.column("identifier", .text).notNull()
                t.column("bundle", .text).notNull()
                t.column("sendsLaunchEvents", .boolean).notNull()
                t.column("isDiscretionary", .boolean).notNull()
                t.column("requestTimeout", .double).notNull()
                t.column("resourceTimeout", .double).notNull()
                t.column("sharedContainer", .text)
                t.column("nextTaskIdentifier", .integer).notNull().defaults(to: 1)
                t.primaryKey(["app", "identifier"])
            }
            try db.create(table: "task") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("app", .text).notNull()
                t.column("session", .text).notNull()
                t.column("bundle", .text).notNull()
                t.column("taskIdentifier", .integer).notNull()
                t.column("kind", .integer).notNull()
                t.column("state", .text).notNull()
                t.column("request", .jsonText).notNull()
                t.column("taskDescription", .text)
                t.column("earliestBeginDate", .double)
                t.column("expectsSend", .integer).notNull()
                t.column("expectsReceive", .integer).notNull()
                t.column("bytesReceived", .integer).notNull().defaults(to: 0)
                t.column("bytesExpected", .integer).notNull().defaults(to: -1)
                t.column("response", .jsonText)
                t.column("error", .jsonText)
                t.column("attempts", .integer).notNull().defaults(to: 0)
                t.column("validator", .text)
                t.column("createdAt", .double).notNull()
                t.column("finishedAt", .double)
                t.uniqueKey(["app", "session", "taskIdentifier"])
            }
            try db.create(table: "event") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("app", .text).notNull()
                t.column("session", .text).notNull()
                t.column("bundle", .text).notNull()
                t.column("taskIdentifier", .integer).notNull()
                t.column("kind", .text).notNull()
                t.column("file", .text)
                t.column("response", .jsonText)
                t.column("error", .jsonText)
                t.column("deliveries", .integer).notNull().defaults(to: 0)
                t.column("createdAt", .double).notNull()
            }
            try db.create(index: "event_by_session", on: "event", columns: ["app", "session", "id"])
        }
        migrator.registerMigration("v2: ended tasks are forgotten once acknowledged") { db in
            try db.create(index: "task_by_state", on: "task", columns: ["app", "session", "state"])
            // Journals written before: every ended task whose events were acknowledged.
            for row in try Row.fetchAll(db, sql: "SELECT DISTINCT app, session FROM task") {
                try forgetEndedTasks(db, app: row["app"], session: row["session"])
            }
        }
        return migrator
    }

    // MARK: sessions

    /// Records (or updates) a background session.
    func saveSession(_ session: SessionRecord) throws {
        try database.write { db in
            if var existing = try SessionRecord.fetchOne(db, key: ["app": session.app, "identifier": session.identifier]) {
                existing.bundle = session.bundle
                existing.sendsLaunchEvents = session.sendsLaunchEvents
                existing.isDiscretionary = session.isDiscretionary
                existing.requestTimeout = session.requestTimeout
                existing.resourceTimeout = session.resourceTimeout
                existing.sharedContainer = session.sharedContainer
                try existing.update(db)
            } else {
                try session.insert(db)
            }
        }
    }

    func session(app: String, identifier: String) throws -> SessionRecord? {
        try database.read { db in try SessionRecord.fetchOne(db, key: ["app": app, "identifier": identifier]) }
    }

    // MARK: tasks

    /// Records a new task and gives it the session's next task identifier.
    func createTask(_ task: TaskRecord) throws -> TaskRecord {
        try database.write { db in
            guard var session = try SessionRecord.fetchOne(db, key: ["app": task.app, "identifier": task.session]) else {
                throw JournalError.unknownSession(task.session)
            }
            var record = task
            record.taskIdentifier = session.nextTaskIdentifier
            session.nextTaskIdentifier += 1
            try session.update(db)
            try record.insert(db)
            return record
        }
    }

    func task(id: Int64) throws -> TaskRecord? {
        try database.read { db in try TaskRecord.fetchOne(db, key: id) }
    }

    func task(app: String, session: String, taskIdentifier: Int) throws -> TaskRecord? {
        try database.read { db in
            try TaskRecord.filter(Column("app") == app && Column("session") == session && Column("taskIdentifier") == taskIdentifier)
                .fetchOne(db)
        }
    }

    /// The tasks of a session that have not ended (what `getAllTasks` lists), oldest first.
    func liveTasks(app: String, session: String) throws -> [TaskRecord] {
        try database.read { db in
            try TaskRecord.filter(
                Column("app") == app && Column("session") == session && TaskRecord.State.live.map(\.rawValue).contains(Column("state"))
            )
            .order(Column("id")).fetchAll(db)
        }
    }

    /// What a process that attaches the session is told of: its live tasks and the ended ones
    /// whose events are still to be acknowledged (their delegate calls carry those tasks).
    func attachableTasks(app: String, session: String) throws -> [TaskRecord] {
        try database.read { db in
            try TaskRecord.fetchAll(
                db,
                sql: """
                    SELECT * FROM task WHERE app = ? AND session = ?
                    AND (state IN (\(TaskRecord.State.sqlList(TaskRecord.State.live)))
                         OR taskIdentifier IN (SELECT taskIdentifier FROM event WHERE app = ? AND session = ?))
                    ORDER BY id
                    """, arguments: [app, session, app, session])
        }
    }

    /// Tasks in the journal, live or ended (for invariants and tests).
    func taskCount() throws -> Int {
        try database.read { db in try TaskRecord.fetchCount(db) }
    }

    /// Tasks that were waiting or running when the host last stopped.
    func unfinishedTasks() throws -> [TaskRecord] {
        try database.read { db in
            try TaskRecord.filter([TaskRecord.State.waiting.rawValue, TaskRecord.State.running.rawValue].contains(Column("state")))
                .order(Column("id")).fetchAll(db)
        }
    }

    func update(_ task: TaskRecord) throws {
        try database.write { db in try task.update(db) }
    }

    /// Marks the task finished (or failed) and records its events, in one transaction.
    func finish(_ task: TaskRecord, events: [EventRecord]) throws -> [EventRecord] {
        try database.write { db in
            try task.update(db)
            var saved: [EventRecord] = []
            for var event in events {
                try event.insert(db)
                saved.append(event)
            }
            return saved
        }
    }

    // MARK: events

    /// The events of a session not yet acknowledged, in order.
    func pendingEvents(app: String, session: String) throws -> [EventRecord] {
        try database.read { db in
            try EventRecord.filter(Column("app") == app && Column("session") == session).order(Column("id")).fetchAll(db)
        }
    }

    /// Every (app, session, bundle) with events waiting.
    func sessionsWithPendingEvents() throws -> [(app: String, session: String, bundle: String)] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT DISTINCT app, session, bundle FROM event ORDER BY id")
                .map { (app: $0["app"], session: $0["session"], bundle: $0["bundle"]) }
        }
    }

    /// Counts one more delivery of `ids`.
    func markDelivered(_ ids: [Int64]) throws {
        guard !ids.isEmpty else { return }
        try database.write { db in
            _ = try EventRecord.filter(ids.contains(Column("id"))).updateAll(db, Column("deliveries") += 1)
        }
    }

    /// Drops acknowledged events, and the ended tasks that have no event left; returns how many
    /// events went.
    @discardableResult
    func acknowledge(_ ids: [Int64]) throws -> Int {
        guard !ids.isEmpty else { return 0 }
        return try database.write { db in
            let acknowledged = EventRecord.filter(ids.contains(Column("id")))
            let sessions = try Row.fetchAll(db, acknowledged.select(Column("app"), Column("session")).distinct())
            let count = try acknowledged.deleteAll(db)
            for row in sessions { try Self.forgetEndedTasks(db, app: row["app"], session: row["session"]) }
            return count
        }
    }

    /// Drops every pending event of a session (it was invalidated with its tasks cancelled), and
    /// its ended tasks.
    @discardableResult
    func dropEvents(app: String, session: String) throws -> Int {
        try database.write { db in
            let count = try EventRecord.filter(Column("app") == app && Column("session") == session).deleteAll(db)
            try Self.forgetEndedTasks(db, app: app, session: session)
            return count
        }
    }

    /// Deletes the session's ended tasks that have no event waiting.
    private static func forgetEndedTasks(_ db: Database, app: String, session: String) throws {
        try db.execute(
            sql: """
                DELETE FROM task WHERE app = ? AND session = ? AND state IN (\(TaskRecord.State.sqlList(TaskRecord.State.ended)))
                AND taskIdentifier NOT IN (SELECT taskIdentifier FROM event WHERE app = ? AND session = ?)
                """, arguments: [app, session, app, session])
    }

    /// Events left in the journal (for invariants and tests).
    func eventCount() throws -> Int {
        try database.read { db in try EventRecord.fetchCount(db) }
    }
}

/// A journal operation named something that is not there.
enum JournalError: Error, CustomStringConvertible {
    case unknownSession(String)

    var description: String {
        switch self {
        case .unknownSession(let identifier): "no background session \(identifier) in the journal"
        }
    }
}

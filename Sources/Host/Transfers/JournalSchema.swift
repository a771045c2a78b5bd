/// The journal's tables and their versions, applied in order when a host opens the file.
///
/// The version is SQLite's `user_version`. Journals written before it (by GRDB's migrator)
/// name their applied migrations in a `grdb_migrations` table instead: their version is read
/// from there, so that they open as they are and take only the migrations they lack.
enum JournalSchema {
    /// The migrations, oldest first: version `n` is the first `n` of them applied.
    static let migrations: [(name: String, apply: @Sendable (SQLiteDatabase) throws -> Void)] = [
        ("v1", createTables),
        ("v2: ended tasks are forgotten once acknowledged", forgetAcknowledgedTasks),
        ("v3: a request's body is kept as its bytes", keepBodiesAsBytes),
        ("v4: each app's kept responses are counted", countResponses)
    ]

    /// Brings the file at `database` to the current version, each migration in a transaction.
    static func migrate(_ database: SQLiteDatabase) throws {
        var version = try version(of: database)
        guard version <= migrations.count else {
            throw JournalError.newerVersion(path: database.path, version: version, supported: migrations.count)
        }
        while version < migrations.count {
            try database.transaction {
                try migrations[version].apply(database)
                try database.execute("PRAGMA user_version = \(version + 1)")
            }
            version += 1
        }
    }

    private static func version(of database: SQLiteDatabase) throws -> Int {
        let stored = Int(try database.rows("PRAGMA user_version").first?.integer("user_version") ?? 0)
        guard stored == 0 else { return stored }
        let ledger = try database.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'grdb_migrations'")
        guard !ledger.isEmpty else { return 0 }
        let applied = Set(try database.rows("SELECT identifier FROM grdb_migrations").compactMap { $0.text("identifier") })
        return migrations.prefix { applied.contains($0.name) }.count
    }

    private static func createTables(_ database: SQLiteDatabase) throws {
        try database.execute(
            """
            CREATE TABLE "session" (
                "app" TEXT NOT NULL, "identifier" TEXT NOT NULL, "bundle" TEXT NOT NULL,
                "sendsLaunchEvents" BOOLEAN NOT NULL, "isDiscretionary" BOOLEAN NOT NULL,
                "requestTimeout" DOUBLE NOT NULL, "resourceTimeout" DOUBLE NOT NULL, "sharedContainer" TEXT,
                "nextTaskIdentifier" INTEGER NOT NULL DEFAULT 1,
                PRIMARY KEY ("app", "identifier"));
            CREATE TABLE "task" (
                "id" INTEGER PRIMARY KEY AUTOINCREMENT, "app" TEXT NOT NULL, "session" TEXT NOT NULL,
                "bundle" TEXT NOT NULL, "taskIdentifier" INTEGER NOT NULL, "kind" INTEGER NOT NULL,
                "state" TEXT NOT NULL, "request" TEXT NOT NULL, "taskDescription" TEXT, "earliestBeginDate" DOUBLE,
                "expectsSend" INTEGER NOT NULL, "expectsReceive" INTEGER NOT NULL,
                "bytesReceived" INTEGER NOT NULL DEFAULT 0, "bytesExpected" INTEGER NOT NULL DEFAULT -1,
                "response" TEXT, "error" TEXT, "attempts" INTEGER NOT NULL DEFAULT 0, "validator" TEXT,
                "createdAt" DOUBLE NOT NULL, "finishedAt" DOUBLE,
                UNIQUE ("app", "session", "taskIdentifier"));
            CREATE TABLE "event" (
                "id" INTEGER PRIMARY KEY AUTOINCREMENT, "app" TEXT NOT NULL, "session" TEXT NOT NULL,
                "bundle" TEXT NOT NULL, "taskIdentifier" INTEGER NOT NULL, "kind" TEXT NOT NULL, "file" TEXT,
                "response" TEXT, "error" TEXT, "deliveries" INTEGER NOT NULL DEFAULT 0, "createdAt" DOUBLE NOT NULL);
            CREATE INDEX "event_by_session" ON "event"("app", "session", "id");
            """)
    }

    private static func forgetAcknowledgedTasks(_ database: SQLiteDatabase) throws {
        try database.execute(#"CREATE INDEX "task_by_state" ON "task"("app", "session", "state")"#)
        // Journals written before: every ended task whose events were acknowledged.
        for row in try database.rows("SELECT DISTINCT app, session FROM task") {
            try Journal.forgetEndedTasks(database, app: row.text("app") ?? "", session: row.text("session") ?? "")
        }
    }

    /// Bodies of later tasks go in a column of their own, as a blob: as JSON a body was an
    /// array of numbers up to four times its size, decoded at every resume, cancel and
    /// progress tick of its task. Earlier rows keep theirs in the request's JSON.
    private static func keepBodiesAsBytes(_ database: SQLiteDatabase) throws {
        try database.execute(#"ALTER TABLE "task" ADD COLUMN "requestBody" BLOB"#)
    }

    /// `app_usage.responseBytes`: the bytes of the responses an app's tasks keep, kept up to
    /// date by triggers on every write of a task, so that the host reads an app's total at each
    /// response without a scan (a server chooses what a response holds; ``Journal/responseBytes(app:)``).
    private static func countResponses(_ database: SQLiteDatabase) throws {
        let length = { (row: String) in "COALESCE(LENGTH(CAST(\(row).response AS BLOB)), 0)" }
        func add(_ amount: String, app: String) -> String {
            """
            INSERT INTO "app_usage"("app", "responseBytes") VALUES (\(app), \(amount))
                ON CONFLICT("app") DO UPDATE SET "responseBytes" = "responseBytes" + excluded."responseBytes";
            """
        }
        try database.execute(
            """
            CREATE TABLE "app_usage" ("app" TEXT NOT NULL PRIMARY KEY, "responseBytes" INTEGER NOT NULL DEFAULT 0);
            INSERT INTO "app_usage"("app", "responseBytes") SELECT app, SUM(\(length("task"))) FROM task GROUP BY app;
            CREATE TRIGGER "task_response_inserted" AFTER INSERT ON "task" WHEN NEW.response IS NOT NULL BEGIN
                \(add(length("NEW"), app: "NEW.app"))
            END;
            CREATE TRIGGER "task_response_updated" AFTER UPDATE OF "response", "app" ON "task"
                WHEN NEW.response IS NOT OLD.response OR NEW.app IS NOT OLD.app BEGIN
                \(add("-\(length("OLD"))", app: "OLD.app"))
                \(add(length("NEW"), app: "NEW.app"))
            END;
            CREATE TRIGGER "task_response_deleted" AFTER DELETE ON "task" WHEN OLD.response IS NOT NULL BEGIN
                \(add("-\(length("OLD"))", app: "OLD.app"))
            END;
            """)
    }
}

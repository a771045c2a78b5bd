import CSQLite
import Glibc

/// One connection to an SQLite file (the system's libsqlite3), its statements prepared once
/// and reused: the journal's queries are a handful of fixed SQL strings run on every download
/// and delivery, so each costs a few microseconds, not a parse and a plan.
///
/// Not thread-safe by itself (opened without SQLite's own mutex): its owner serialises every
/// call (``Journal`` holds a lock around each use).
final class SQLiteDatabase: @unchecked Sendable {
    /// A value bound to a `?` parameter or read from a column.
    enum Value: Equatable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob([UInt8])
    }

    /// The file, for errors.
    let path: String
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    /// Opens (creating) the file at `path`, never through a symbolic link.
    init(path: String) throws {
        self.path = path
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            handle = nil
            throw SQLiteError(path: path, code: status, message: message, sql: nil)
        }
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that take no parameters and return no rows (schema, pragmas).
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard status == SQLITE_OK else {
            throw SQLiteError(path: path, code: status, message: message.map { String(cString: $0) } ?? "", sql: sql)
        }
    }

    /// Runs a statement that returns no rows; returns how many rows it changed.
    @discardableResult
    func run(_ sql: String, _ arguments: [Value] = []) throws -> Int {
        let statement = try prepared(sql, arguments)
        defer { sqlite3_reset(statement) }
        let status = sqlite3_step(statement)
        guard status == SQLITE_DONE || status == SQLITE_ROW else { throw error(status, sql) }
        return Int(sqlite3_changes(handle))
    }

    /// The rows a query returns, each as its columns' values by name.
    func rows(_ sql: String, _ arguments: [Value] = []) throws -> [Row] {
        let statement = try prepared(sql, arguments)
        defer { sqlite3_reset(statement) }
        let count = sqlite3_column_count(statement)
        let names = (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) }
        var rows: [Row] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { throw error(status, sql) }
            rows.append(Row(names: names, values: (0..<count).map { column(statement, $0) }))
        }
    }

    /// The rowid of the last row inserted on this connection.
    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Runs `body` in one transaction (`BEGIN IMMEDIATE`: the write lock taken at once),
    /// committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try run("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            _ = try? run("ROLLBACK")
            throw error
        }
    }

    // MARK: statements

    private func prepared(_ sql: String, _ arguments: [Value]) throws -> OpaquePointer {
        let statement: OpaquePointer
        if let cached = statements[sql] {
            statement = cached
        } else {
            var made: OpaquePointer?
            let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &made, nil)
            guard status == SQLITE_OK, let made else { throw error(status, sql) }
            statements[sql] = made
            statement = made
        }
        sqlite3_clear_bindings(statement)
        let expected = Int(sqlite3_bind_parameter_count(statement))
        guard expected == arguments.count else {
            throw SQLiteError(
                path: path, code: SQLITE_RANGE, message: "\(arguments.count) arguments for \(expected) parameters", sql: sql)
        }
        for (index, value) in arguments.enumerated() {
            let position = Int32(index + 1)
            let status: Int32 =
                switch value {
                case .null: sqlite3_bind_null(statement, position)
                case .integer(let integer): sqlite3_bind_int64(statement, position, integer)
                case .real(let real): sqlite3_bind_double(statement, position, real)
                // With its length: a NUL inside ends no text early (nor makes two texts one).
                case .text(let text):
                    text.utf8CString.withUnsafeBufferPointer {
                        sqlite3_bind_text(statement, position, $0.baseAddress, Int32($0.count - 1), sg_sqlite_transient())
                    }
                // An empty blob is a zero-length one, never NULL (a null pointer would bind NULL).
                case .blob(let bytes) where bytes.isEmpty: sqlite3_bind_zeroblob(statement, position, 0)
                case .blob(let bytes):
                    bytes.withUnsafeBytes { sqlite3_bind_blob(statement, position, $0.baseAddress, Int32($0.count), sg_sqlite_transient()) }
                }
            guard status == SQLITE_OK else { throw error(status, sql) }
        }
        return statement
    }

    private func column(_ statement: OpaquePointer, _ index: Int32) -> Value {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: .real(sqlite3_column_double(statement, index))
        case SQLITE_NULL: .null
        case SQLITE_BLOB:
            .blob(
                sqlite3_column_blob(statement, index).map {
                    Array(UnsafeRawBufferPointer(start: $0, count: Int(sqlite3_column_bytes(statement, index))))
                } ?? [])
        default:
            sqlite3_column_text(statement, index).map { text in
                let count = Int(sqlite3_column_bytes(statement, index))
                return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
            } ?? .null
        }
    }

    private func error(_ status: Int32, _ sql: String) -> SQLiteError {
        SQLiteError(path: path, code: status, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    /// One row of a query's result.
    struct Row {
        let names: [String]
        let values: [Value]

        /// The value of the column `name` (`.null` when there is none).
        subscript(_ name: String) -> Value {
            names.firstIndex(of: name).map { values[$0] } ?? .null
        }

        func text(_ name: String) -> String? {
            if case .text(let text) = self[name] { return text }
            return nil
        }

        func blob(_ name: String) -> [UInt8]? {
            if case .blob(let bytes) = self[name] { return bytes }
            return nil
        }

        func integer(_ name: String) -> Int64? {
            switch self[name] {
            case .integer(let integer): integer
            case .real(let real): Int64(exactly: real)
            default: nil
            }
        }

        func real(_ name: String) -> Double? {
            switch self[name] {
            case .integer(let integer): Double(integer)
            case .real(let real): real
            default: nil
            }
        }
    }
}

/// An SQLite call that failed: the file, SQLite's message and code, and the statement.
struct SQLiteError: Error, CustomStringConvertible {
    let path: String
    let code: Int32
    let message: String
    let sql: String?

    var description: String {
        let statement = sql.map { " in: \($0.split(separator: "\n").map { $0.drop { $0 == " " } }.joined(separator: " "))" } ?? ""
        return "\(path): \(message) (SQLite result code \(code))\(statement)"
    }
}

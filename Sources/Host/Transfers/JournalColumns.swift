import Foundation
import SandglassIPC

/// How the journal's records are stored: one column per field, the request, response and
/// error as JSON text (sorted keys) — the layout journals of earlier versions have, so that
/// they open as they are — and a request's body as a blob of its bytes.
protocol JournalRow {
    /// The table.
    static var table: String { get }
    /// The columns written, with their values (the rowid `id` not among them).
    var columns: [(String, SQLiteDatabase.Value)] { get throws }
    /// The record a row holds; throws naming the column that does not read.
    init(row: SQLiteDatabase.Row) throws
}

extension SessionRecord: JournalRow {
    static let table = "session"

    var columns: [(String, SQLiteDatabase.Value)] {
        [
            ("app", .text(app)), ("identifier", .text(identifier)), ("bundle", .text(bundle)),
            ("sendsLaunchEvents", .bool(sendsLaunchEvents)), ("isDiscretionary", .bool(isDiscretionary)),
            ("requestTimeout", .real(requestTimeout)), ("resourceTimeout", .real(resourceTimeout)),
            ("sharedContainer", .optionalText(sharedContainer)), ("nextTaskIdentifier", .integer(Int64(nextTaskIdentifier)))
        ]
    }

    init(row: SQLiteDatabase.Row) throws {
        let read = JournalColumnReader(row: row, table: Self.table)
        self.init(
            app: try read.text("app"), identifier: try read.text("identifier"), bundle: try read.text("bundle"),
            sendsLaunchEvents: try read.integer("sendsLaunchEvents") != 0, isDiscretionary: try read.integer("isDiscretionary") != 0,
            requestTimeout: try read.real("requestTimeout"), resourceTimeout: try read.real("resourceTimeout"),
            sharedContainer: row.text("sharedContainer"), nextTaskIdentifier: Int(try read.integer("nextTaskIdentifier")))
    }
}

extension TaskRecord: JournalRow {
    static let table = "task"

    var columns: [(String, SQLiteDatabase.Value)] {
        get throws {
            [
                ("app", .text(app)), ("session", .text(session)), ("bundle", .text(bundle)),
                ("taskIdentifier", .integer(Int64(taskIdentifier))), ("kind", .integer(Int64(kind.rawValue))),
                ("state", .text(state.rawValue)), ("request", try .json(request.withoutBody)),
                ("requestBody", request.body.map { .blob($0) } ?? .null), ("taskDescription", .optionalText(taskDescription)),
                ("earliestBeginDate", earliestBeginDate.map { .real($0) } ?? .null), ("expectsSend", .integer(expectsSend)),
                ("expectsReceive", .integer(expectsReceive)), ("bytesReceived", .integer(bytesReceived)),
                ("bytesExpected", .integer(bytesExpected)), ("response", try .json(response)), ("error", try .json(error)),
                ("attempts", .integer(Int64(attempts))), ("validator", .optionalText(validator)), ("createdAt", .real(createdAt)),
                ("finishedAt", finishedAt.map { .real($0) } ?? .null)
            ]
        }
    }

    init(row: SQLiteDatabase.Row) throws {
        let read = JournalColumnReader(row: row, table: Self.table)
        guard let kind = TaskKind(rawValue: UInt8(clamping: try read.integer("kind"))) else { throw read.invalid("kind") }
        guard let state = State(rawValue: try read.text("state")) else { throw read.invalid("state") }
        self.init(
            id: try read.integer("id"), app: try read.text("app"), session: try read.text("session"), bundle: try read.text("bundle"),
            taskIdentifier: Int(try read.integer("taskIdentifier")), kind: kind, state: state,
            request: try read.request(), taskDescription: row.text("taskDescription"),
            earliestBeginDate: row.real("earliestBeginDate"), expectsSend: try read.integer("expectsSend"),
            expectsReceive: try read.integer("expectsReceive"), bytesReceived: try read.integer("bytesReceived"),
            bytesExpected: try read.integer("bytesExpected"), response: try read.optionalJSON("response"),
            error: try read.optionalJSON("error"), attempts: Int(try read.integer("attempts")), validator: row.text("validator"),
            createdAt: try read.real("createdAt"), finishedAt: row.real("finishedAt"))
    }
}

extension EventRecord: JournalRow {
    static let table = "event"

    var columns: [(String, SQLiteDatabase.Value)] {
        get throws {
            [
                ("app", .text(app)), ("session", .text(session)), ("bundle", .text(bundle)),
                ("taskIdentifier", .integer(Int64(taskIdentifier))), ("kind", .text(kind.rawValue)), ("file", .optionalText(file)),
                ("response", try .json(response)), ("error", try .json(error)), ("deliveries", .integer(Int64(deliveries))),
                ("createdAt", .real(createdAt))
            ]
        }
    }

    init(row: SQLiteDatabase.Row) throws {
        let read = JournalColumnReader(row: row, table: Self.table)
        guard let kind = Kind(rawValue: try read.text("kind")) else { throw read.invalid("kind") }
        self.init(
            id: try read.integer("id"), app: try read.text("app"), session: try read.text("session"), bundle: try read.text("bundle"),
            taskIdentifier: Int(try read.integer("taskIdentifier")), kind: kind, file: row.text("file"),
            response: try read.optionalJSON("response"), error: try read.optionalJSON("error"),
            deliveries: Int(try read.integer("deliveries")), createdAt: try read.real("createdAt"))
    }
}

extension SQLiteDatabase.Value {
    static func bool(_ value: Bool) -> Self { .integer(value ? 1 : 0) }

    static func optionalText(_ value: String?) -> Self { value.map { .text($0) } ?? .null }

    /// `value` as JSON text with sorted keys, NULL when there is none.
    static func json(_ value: (some Encodable)?) throws -> Self {
        guard let value else { return .null }
        return .text(String(decoding: try JournalJSON.encoder.encode(value), as: UTF8.self))
    }
}

extension HTTPRequestPayload {
    /// The request as the `request` column keeps it: its body is in `requestBody`.
    fileprivate var withoutBody: HTTPRequestPayload {
        var request = self
        request.body = nil
        return request
    }
}

/// The coders of the JSON columns, made once.
private enum JournalJSON {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()
    static let decoder = JSONDecoder()
}

/// Reads the columns of one row, throwing ``JournalCorrupt`` for a value that is missing or of
/// the wrong kind.
private struct JournalColumnReader {
    let row: SQLiteDatabase.Row
    let table: String

    func text(_ name: String) throws -> String {
        guard let text = row.text(name) else { throw invalid(name) }
        return text
    }

    func integer(_ name: String) throws -> Int64 {
        guard let integer = row.integer(name) else { throw invalid(name) }
        return integer
    }

    func real(_ name: String) throws -> Double {
        guard let real = row.real(name) else { throw invalid(name) }
        return real
    }

    func json<T: Decodable>(_ name: String) throws -> T {
        guard let value: T = try optionalJSON(name) else { throw invalid(name) }
        return value
    }

    /// A task's request: its JSON, with the body of the `requestBody` column (a row of a
    /// journal before v3 has it in the JSON).
    func request() throws -> HTTPRequestPayload {
        var request: HTTPRequestPayload = try json("request")
        if let body = row.blob("requestBody") { request.body = body }
        return request
    }

    func optionalJSON<T: Decodable>(_ name: String) throws -> T? {
        guard let text = row.text(name) else { return nil }
        do {
            return try JournalJSON.decoder.decode(T.self, from: Data(text.utf8))
        } catch {
            throw JournalCorrupt(table: table, column: name, detail: "\(error)")
        }
    }

    func invalid(_ name: String) -> JournalCorrupt {
        JournalCorrupt(table: table, column: name, detail: "the value is missing or of the wrong type: \(row[name])")
    }
}

/// A row of the journal that does not read as its record.
struct JournalCorrupt: Error, CustomStringConvertible {
    let table: String
    let column: String
    let detail: String

    var description: String { "the journal's \(table).\(column) does not read: \(detail)" }
}

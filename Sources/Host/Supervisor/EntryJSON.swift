import Foundation
import SandglassIPC

/// What of an extension's entries the event log carries: a reply is up to 1 MiB, written into
/// a line of the log at every activation; an entry's JSON and text come whole within these
/// bounds, and past them are left out, said or counted.
enum EntryLog {
    /// An entry of a placeholder or snapshot (`activation.end`): its JSON and its text.
    static let entryBytes = 64 << 10
    /// The entries and texts of one `timeline` event, in all.
    static let timelineBytes = 64 << 10
    /// How deep an entry's JSON may nest and be written as JSON; deeper, it is written as a
    /// string. A real entry nests a few levels.
    static let maximumDepth = 64

    /// The bytes an entry's JSON (as ``validJSON(_:)`` writes it) and its text take in a line,
    /// escapes counted.
    static func bytes(_ json: String, _ text: JSONValue?) -> Int {
        json.utf8.count + (text?.serialized.utf8.count ?? 0)
    }

    /// The JSON and text of each of `entries` while they fit in ``timelineBytes``; past it
    /// `null` for both, counted in `leftOut`.
    static func timeline(_ entries: [EntryPayload]) -> (json: [JSONValue], texts: [JSONValue], leftOut: Int) {
        var budget = timelineBytes
        var json: [JSONValue] = []
        var texts: [JSONValue] = []
        var leftOut = 0
        for entry in entries {
            let logged = budget > 0 ? validJSON(entry.json) : ""
            let text = budget > 0 ? entry.text.map(JSONValue.string) : nil
            let size = bytes(logged, text)
            if budget > 0 && size <= budget {
                budget -= size
                json.append(.raw(logged))
                texts.append(text ?? .null)
            } else {
                budget = 0
                leftOut += 1
                json.append(.null)
                texts.append(.null)
            }
        }
        return (json, texts, leftOut)
    }
}

/// The entry JSON with its date, relevance, text and view, for the event log; its JSON and text
/// past ``EntryLog/entryBytes`` left out, with how many bytes.
func entryJSON(_ entry: EntryPayload) -> String {
    var fields: [(String, JSONValue)] = [("date", .double(entry.date))]
    if let r = entry.relevance {
        fields.append(("relevance", .object([("score", .double(Double(r.score))), ("duration", .double(r.duration))])))
    }
    let logged = validJSON(entry.json)
    if EntryLog.bytes(logged, entry.text.map(JSONValue.string)) <= EntryLog.entryBytes {
        if let text = entry.text { fields.append(("text", .string(text))) }
        fields.append(("entry", .raw(logged)))
    } else {
        if let text = entry.text { fields.append(("text", .string(MessageBudget.cut(text, to: MessageLimits.fieldBytes)))) }
        fields.append(
            (
                "entry",
                .string(
                    "\(entry.json.count) bytes of JSON left out: an entry's JSON and text take at most \(EntryLog.entryBytes >> 10) KiB of the log"
                )
            ))
    }
    if let view = entry.view { fields.append(("view", view.entryJSON)) }
    return JSONValue.object(fields).serialized
}

/// The extension's JSON as the host writes it: parsed, then serialized again — never its bytes,
/// which a lenient parser (UTF-16 or UTF-32 detected without a byte-order mark, a trailing
/// comma) could take while they close the entry and write fields of the extension's choosing
/// into the log's line. JSON is UTF-8 without a byte-order mark and without NUL (RFC 8259);
/// anything else is logged as a string, and so is a value nested more than
/// ``EntryLog/maximumDepth`` levels: inside its event's line it must still read back (a reader
/// such as Foundation's refuses a line nested past 512). The value written is on one line, what
/// a terminal acts on escaped as the log escapes it.
func validJSON(_ bytes: [UInt8]) -> String {
    guard !bytes.contains(0), bytes.starts(with: [0xEF, 0xBB, 0xBF]) == false, String(validating: bytes, as: UTF8.self) != nil,
        let object = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]),
        depth(of: object) <= EntryLog.maximumDepth
    else {
        return JSONValue.string(String(decoding: bytes, as: UTF8.self)).serialized
    }
    return JSONValue(foundation: object).serialized
}

/// How deep arrays and objects nest in `value` (a scalar: 0); walked with a stack of its own.
private func depth(of value: Any) -> Int {
    var deepest = 0
    var stack: [(Any, Int)] = [(value, 0)]
    while let (value, level) = stack.popLast() {
        let children: [Any]
        if let array = value as? [Any] {
            children = array
        } else if let object = value as? [String: Any] {
            children = Array(object.values)
        } else {
            continue
        }
        deepest = max(deepest, level + 1)
        for child in children { stack.append((child, level + 1)) }
    }
    return deepest
}

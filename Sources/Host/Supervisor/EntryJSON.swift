import Foundation
import SandglassIPC

/// The entry JSON with its date, relevance, text and view, for the event log.
func entryJSON(_ entry: EntryPayload) -> String {
    var fields: [(String, JSONValue)] = [("date", .double(entry.date))]
    if let r = entry.relevance {
        fields.append(("relevance", .object([("score", .double(Double(r.score))), ("duration", .double(r.duration))])))
    }
    if let text = entry.text { fields.append(("text", .string(text))) }
    fields.append(("entry", .raw(validJSON(entry.json))))
    if let view = entry.view { fields.append(("view", view.json)) }
    return JSONValue.object(fields).serialized
}

/// The extension's JSON as the host writes it: parsed, then serialized again — never its bytes,
/// which a lenient parser (UTF-16 or UTF-32 detected without a byte-order mark, a trailing
/// comma) could take while they close the entry and write fields of the extension's choosing
/// into the log's line. JSON is UTF-8 without a byte-order mark and without NUL (RFC 8259);
/// anything else is logged as a string. The value written is on one line, what a terminal acts
/// on escaped as the log escapes it.
func validJSON(_ bytes: [UInt8]) -> String {
    guard !bytes.contains(0), bytes.starts(with: [0xEF, 0xBB, 0xBF]) == false, String(validating: bytes, as: UTF8.self) != nil,
        let object = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    else {
        return JSONValue.string(String(decoding: bytes, as: UTF8.self)).serialized
    }
    return JSONValue(foundation: object).serialized
}

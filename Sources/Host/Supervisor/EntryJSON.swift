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

/// The extension's JSON bytes when they parse as JSON, else the text as a JSON string.
func validJSON(_ bytes: [UInt8]) -> String {
    if (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil {
        return String(decoding: bytes, as: UTF8.self)
    }
    return JSONValue.string(String(decoding: bytes, as: UTF8.self)).serialized
}

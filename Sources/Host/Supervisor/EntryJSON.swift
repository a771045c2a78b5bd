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

/// The extension's JSON bytes when they parse as JSON, else the text as a JSON string. Kept on
/// one line of the log: the line breaks and tabs valid JSON holds are whitespace between its
/// tokens, and become spaces (a line break would start a line of the log of the extension's
/// making); DEL, C1 controls and bidirectional overrides, which only a string can hold, are
/// escaped as the log escapes them.
func validJSON(_ bytes: [UInt8]) -> String {
    let text = String(decoding: bytes, as: UTF8.self)
    guard (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil else {
        return JSONValue.string(text).serialized
    }
    guard text.unicodeScalars.contains(where: { $0.value < 0x20 || JSONValue.escapedInLog($0) }) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        if scalar.value < 0x20 {
            out.append(" ")
        } else if JSONValue.escapedInLog(scalar) {
            out.append(contentsOf: String(format: "\\u%04x", scalar.value).unicodeScalars)
        } else {
            out.append(scalar)
        }
    }
    return String(out)
}

import SandglassIPC

/// Why an entry could not be recorded.
struct EntryEncodingError: Error, CustomStringConvertible {
    let entryType: String
    let reason: String

    var description: String { "could not encode an entry of type \(entryType): \(reason)" }
}

/// Turns timeline entries into the JSON objects the host records.
///
/// An `Encodable` entry goes through `JSONEncoder` (sorted keys, ISO 8601 dates); any other
/// entry through ``MirrorJSON``. A value that is not a JSON object is wrapped as `{"value": …}`.
enum EntryEncoder {
    /// The entry's payload, with the text rendering when the configuration has one.
    static func payload(for entry: any TimelineEntry, text: String? = nil) throws(EntryEncodingError) -> EntryPayload {
        EntryPayload(
            date: entry.date.timeIntervalSince1970,
            relevance: entry.relevance.map { RelevancePayload(score: $0.score, duration: $0.duration) },
            json: try json(for: entry),
            text: text
        )
    }

    /// The entry as a JSON object, UTF-8.
    static func json(for entry: Any) throws(EntryEncodingError) -> [UInt8] {
        let bytes: [UInt8]
        if let encodable = entry as? any Encodable {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            do {
                bytes = Array(try encoder.encode(encodable))
            } catch {
                throw EntryEncodingError(entryType: String(describing: type(of: entry)), reason: "\(error)")
            }
        } else {
            bytes = MirrorJSON.value(of: entry).bytes
        }
        return wrappedAsObject(bytes)
    }

    /// `bytes` when they hold a JSON object, else `{"value": bytes}`.
    static func wrappedAsObject(_ bytes: [UInt8]) -> [UInt8] {
        let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        if bytes.first(where: { !whitespace.contains($0) }) == UInt8(ascii: "{") {
            return bytes
        }
        return Array("{\"value\":".utf8) + bytes + [UInt8(ascii: "}")]
    }
}

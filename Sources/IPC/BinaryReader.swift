/// Reads the encodings of ``BinaryWriter`` from a payload, with bounds checks on every read.
struct BinaryReader {
    private let bytes: ArraySlice<UInt8>
    private(set) var offset: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.offset = 0
    }

    var remaining: Int { bytes.count - offset }

    private func fail(_ reason: String) -> PayloadError {
        PayloadError(reason: reason, offset: offset)
    }

    mutating func readByte(_ what: String) throws(PayloadError) -> UInt8 {
        guard remaining >= 1 else { throw fail("\(what): payload ends") }
        let b = bytes[bytes.startIndex + offset]
        offset += 1
        return b
    }

    mutating func readBool(_ what: String) throws(PayloadError) -> Bool {
        let start = offset
        switch try readByte(what) {
        case 0: return false
        case 1: return true
        case let other:
            offset = start
            throw fail("\(what): boolean byte is \(other), expected 0 or 1")
        }
    }

    mutating func readVarint(_ what: String) throws(PayloadError) -> UInt64 {
        let start = offset
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard remaining >= 1 else {
                offset = start
                throw fail("\(what): varint runs past the end of the payload")
            }
            let b = bytes[bytes.startIndex + offset]
            offset += 1
            if shift == 63 && b > 1 {
                offset = start
                throw fail("\(what): varint overflows 64 bits")
            }
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 {
                offset = start
                throw fail("\(what): varint longer than 10 bytes")
            }
        }
    }

    mutating func readSigned(_ what: String) throws(PayloadError) -> Int64 {
        let v = try readVarint(what)
        return Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1)
    }

    /// A varint that must fit a non-negative `Int` (task identifiers, attempts): a larger value
    /// is a malformed payload, not a trap.
    mutating func readInt(_ what: String) throws(PayloadError) -> Int {
        try readVarint(what, as: Int.self, fitting: "a signed 64-bit integer")
    }

    mutating func readUInt16(_ what: String) throws(PayloadError) -> UInt16 {
        try readVarint(what, as: UInt16.self, fitting: "16 bits")
    }

    /// A varint that must fit `type`; else a malformed payload that says it does not fit `size`.
    private mutating func readVarint<T: FixedWidthInteger>(_ what: String, as type: T.Type, fitting size: String) throws(PayloadError) -> T
    {
        let start = offset
        let v = try readVarint(what)
        guard let value = T(exactly: v) else {
            offset = start
            throw fail("\(what): \(v) does not fit \(size)")
        }
        return value
    }

    /// A count or length, checked against the bytes left (each element takes at least `minimumSize`).
    mutating func readCount(_ what: String, minimumSize: Int = 1) throws(PayloadError) -> Int {
        let start = offset
        let v = try readVarint(what)
        guard v <= UInt64(remaining / max(minimumSize, 1)) else {
            let left = remaining
            offset = start
            throw fail("\(what): length \(v) exceeds the \(left) bytes left")
        }
        return Int(v)
    }

    mutating func readDouble(_ what: String) throws(PayloadError) -> Double {
        guard remaining >= 8 else { throw fail("\(what): needs 8 bytes, \(remaining) left") }
        var bits: UInt64 = 0
        for i in 0..<8 {
            bits |= UInt64(bytes[bytes.startIndex + offset + i]) << UInt64(8 * i)
        }
        offset += 8
        return Double(bitPattern: bits)
    }

    mutating func readFloat(_ what: String) throws(PayloadError) -> Float {
        guard remaining >= 4 else { throw fail("\(what): needs 4 bytes, \(remaining) left") }
        var bits: UInt32 = 0
        for i in 0..<4 {
            bits |= UInt32(bytes[bytes.startIndex + offset + i]) << UInt32(8 * i)
        }
        offset += 4
        return Float(bitPattern: bits)
    }

    mutating func readBytes(_ what: String) throws(PayloadError) -> [UInt8] {
        let count = try readCount(what)
        let start = bytes.startIndex + offset
        offset += count
        return Array(bytes[start..<start + count])
    }

    mutating func readString(_ what: String) throws(PayloadError) -> String {
        let start = offset
        let count = try readCount(what)
        let base = bytes.startIndex + offset
        let slice = bytes[base..<base + count]
        guard let string = String(validating: slice, as: UTF8.self) else {
            offset = start
            throw fail("\(what): \(count) bytes are not valid UTF-8")
        }
        offset += count
        return string
    }

    mutating func readOptional<T>(_ what: String, _ body: (inout BinaryReader) throws(PayloadError) -> T) throws(PayloadError) -> T? {
        try readBool("\(what) presence") ? try body(&self) : nil
    }

    /// An array of at most `maximum` elements (a longer one is refused by its count, before any
    /// of it is decoded).
    mutating func readArray<T>(
        _ what: String, maximum: Int = .max, _ body: (inout BinaryReader) throws(PayloadError) -> T
    ) throws(PayloadError) -> [T] {
        let start = offset
        let count = try readCount("\(what) count")
        guard count <= maximum else {
            offset = start
            throw fail("\(what): \(count), over the limit of \(maximum)")
        }
        var result: [T] = []
        // A count is at most the bytes left, not the elements they hold (each may be far larger
        // than a byte): reserve a bounded part, and let the array grow with what is decoded.
        result.reserveCapacity(min(count, 1024))
        for _ in 0..<count { result.append(try body(&self)) }
        return result
    }

    mutating func readEnum<E: RawRepresentable>(_ what: String, _ type: E.Type) throws(PayloadError) -> E where E.RawValue == UInt8 {
        let start = offset
        let raw = try readByte(what)
        guard let value = E(rawValue: raw) else {
            offset = start
            throw fail("\(what): unknown value \(raw)")
        }
        return value
    }

    func expectEnd() throws(PayloadError) {
        guard remaining == 0 else { throw fail("\(remaining) trailing bytes after the message") }
    }
}

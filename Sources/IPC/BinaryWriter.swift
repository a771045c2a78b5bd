/// Appends the protocol's primitive encodings to a byte array.
///
/// Integers are LEB128 varints, `Double` and `Float` their IEEE bit patterns little-endian,
/// strings and byte arrays a varint length and the bytes, optionals a 0/1 byte.
public struct BinaryWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init(reservingCapacity capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public mutating func write(_ byte: UInt8) {
        bytes.append(byte)
    }

    public mutating func write(_ value: Bool) {
        bytes.append(value ? 1 : 0)
    }

    public mutating func writeVarint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    public mutating func writeVarint(_ value: Int) {
        writeVarint(UInt64(value))
    }

    /// A signed integer, zigzag-encoded as a varint (small magnitudes take few bytes).
    public mutating func writeSigned(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    public mutating func write(_ value: UInt16) {
        writeVarint(UInt64(value))
    }

    public mutating func write(_ value: Double) {
        let bits = value.bitPattern
        for shift in stride(from: 0, to: 64, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
    }

    public mutating func write(_ value: Float) {
        let bits = value.bitPattern
        for shift in stride(from: 0, to: 32, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(shift)))
        }
    }

    public mutating func write(_ value: String) {
        var copy = value
        copy.withUTF8 { utf8 in
            writeVarint(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    public mutating func write(bytes value: [UInt8]) {
        writeVarint(value.count)
        bytes.append(contentsOf: value)
    }

    public mutating func write<T>(_ value: T?, _ body: (inout BinaryWriter, T) -> Void) {
        if let value {
            bytes.append(1)
            body(&self, value)
        } else {
            bytes.append(0)
        }
    }

    public mutating func write<T>(array: [T], _ body: (inout BinaryWriter, T) -> Void) {
        writeVarint(array.count)
        for element in array { body(&self, element) }
    }

    /// Appends raw bytes without a length.
    public mutating func append(contentsOf raw: some Sequence<UInt8>) {
        bytes.append(contentsOf: raw)
    }

    /// Overwrites four bytes at `offset` with `value` big-endian (the frame length).
    mutating func patchBigEndian(_ value: UInt32, at offset: Int) {
        bytes[offset] = UInt8(truncatingIfNeeded: value >> 24)
        bytes[offset + 1] = UInt8(truncatingIfNeeded: value >> 16)
        bytes[offset + 2] = UInt8(truncatingIfNeeded: value >> 8)
        bytes[offset + 3] = UInt8(truncatingIfNeeded: value)
    }
}

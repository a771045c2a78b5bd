import Foundation

/// A binary property list (`bplist00`) written object by object, as CFBinaryPList.c lays it out:
/// the 8-byte header, the objects, the offset table (one big-endian offset per object) and the
/// 32-byte trailer. The tests make with it what Foundation's writer never makes: an array
/// referenced from many places, a reference or an offset out of range, a cycle.
public struct BinaryPlist: Sendable {
    /// An object, its references being indices into ``objects``.
    public enum Object: Sendable {
        /// An ASCII string.
        case string(String)
        /// A non-negative integer (8 bytes).
        case integer(UInt64)
        case array([Int])
        /// Keys and values, each a reference.
        case dictionary([(key: Int, value: Int)])
        /// Bytes written as they are (a malformed object).
        case raw([UInt8])
    }

    public var objects: [Object]
    /// The top object's index.
    public var top = 0
    /// The bytes of a reference; nil: the fewest that reach every object.
    public var referenceSize: Int?
    /// The bytes of an offset in the offset table; nil: the fewest that reach the table.
    public var offsetSize: Int?
    /// Changes to the trailer's fields, written after them.
    public var trailerPatch: [(index: Int, byte: UInt8)] = []
    /// Overrides the offsets the table holds, by object.
    public var offsetPatch: [Int: Int] = [:]

    public init(_ objects: [Object], top: Int = 0) {
        self.objects = objects
        self.top = top
    }

    /// The shared-reference bomb: a dictionary `{key: object 2}` whose object 2 + i is an array
    /// holding two references to object 3 + i, `levels` arrays deep, the last holding a string.
    /// About 10 bytes a level; Foundation builds each reference as a value of its own, 2^levels
    /// strings in all.
    public static func sharedReferenceBomb(levels: Int, key: String = "relayData") -> BinaryPlist {
        var objects: [Object] = [.dictionary([(1, 2)]), .string(key)]
        for level in 0..<levels {
            objects.append(.array([3 + level, 3 + level]))
        }
        objects.append(.string("x"))
        return BinaryPlist(objects)
    }

    /// How many values Foundation builds from ``sharedReferenceBomb(levels:key:)``.
    public static func expandedValues(levels: Int) -> Double {
        // The dictionary, its key, then 2^i arrays at each level and 2^levels strings.
        2 + pow(2, Double(levels + 1)) - 1
    }

    /// The file's bytes.
    public var data: Data {
        let refSize = referenceSize ?? Self.width(of: objects.count - 1)
        var body: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(offsetPatch[index] ?? body.count)
            switch object {
            case .string(let string):
                Self.appendHeader(0x50, count: string.utf8.count, to: &body)
                body += Array(string.utf8)
            case .integer(let value):
                body.append(0x13)
                Self.append(value, width: 8, to: &body)
            case .array(let references):
                Self.appendHeader(0xA0, count: references.count, to: &body)
                for reference in references { Self.append(UInt64(reference), width: refSize, to: &body) }
            case .dictionary(let entries):
                Self.appendHeader(0xD0, count: entries.count, to: &body)
                for entry in entries { Self.append(UInt64(entry.key), width: refSize, to: &body) }
                for entry in entries { Self.append(UInt64(entry.value), width: refSize, to: &body) }
            case .raw(let bytes):
                body += bytes
            }
        }
        let tableOffset = body.count
        let offSize = offsetSize ?? Self.width(of: tableOffset)
        for offset in offsets { Self.append(UInt64(offset), width: offSize, to: &body) }
        var trailer = [UInt8](repeating: 0, count: 6) + [UInt8(offSize), UInt8(refSize)]
        Self.append(UInt64(objects.count), width: 8, to: &trailer)
        Self.append(UInt64(top), width: 8, to: &trailer)
        Self.append(UInt64(tableOffset), width: 8, to: &trailer)
        for patch in trailerPatch { trailer[patch.index] = patch.byte }
        return Data(body + trailer)
    }

    /// A marker with its count: in the low 4 bits, or 0xF and an integer object after it.
    private static func appendHeader(_ marker: UInt8, count: Int, to body: inout [UInt8]) {
        guard count >= 15 else {
            body.append(marker | UInt8(count))
            return
        }
        body.append(marker | 0x0F)
        let width = Self.width(of: count)
        let exponent: UInt8 = width == 1 ? 0 : width == 2 ? 1 : width <= 4 ? 2 : 3
        body.append(0x10 | exponent)
        append(UInt64(count), width: 1 << exponent, to: &body)
    }

    /// The fewest bytes that hold `value`.
    private static func width(of value: Int) -> Int {
        var width = 1
        while width < 8 && value >> (8 * width) != 0 { width += 1 }
        return width
    }

    /// Appends `value` as a big-endian integer of `width` bytes.
    private static func append(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        for index in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(width - 1 - index)))) }
    }
}

import Foundation

/// What the host checks of a binary property list someone else wrote (a bundle's Info.plist,
/// an app group's defaults) before `PropertyListSerialization` parses it.
///
/// A binary property list's objects refer to one another by index, and Foundation builds a
/// value of its own for every reference it follows: an array holding two references to the
/// next, 28 levels deep, is 150 bytes and 2^29 values (a 20-level one took 130 MB and 1 s, a
/// 30-level one aborted the process). So the object graph is walked once from the top object,
/// each object's size in values kept, and a list whose references expand to more than
/// ``valueLimit`` values is refused, as is a structure out of bounds (named by byte offset) or
/// a cycle. A shared container alone is not refused: CF's writer shares the strings, numbers,
/// dates and data that are equal, and a container that is the same instance twice in what it
/// writes.
///
/// Data not starting `bplist0` is not parsed as binary by CF (XML and OpenStep lists have no
/// references; Foundation's nesting limit of 512 holds for them) and passes unchecked.
package enum BinaryPropertyListCheck {
    /// The most values a binary property list may expand to (about 85 bytes of the host's
    /// memory each as Foundation builds them).
    package static let valueLimit = 1_000_000

    /// Why a binary property list is refused; it reads after the file's name ("… is a binary
    /// property list whose …").
    package struct Refusal: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// Throws when `data` is a binary property list Foundation should not parse.
    package static func check(_ data: Data) throws(Refusal) {
        guard data.starts(with: "bplist0".utf8) else { return }
        let refusal = data.withUnsafeBytes { bytes -> Refusal? in
            do throws(Refusal) {
                try Graph(bytes).walk()
                return nil
            } catch {
                return error
            }
        }
        if let refusal { throw refusal }
    }
}

/// A binary property list's trailer, offset table and references, read with every bound checked.
private struct Graph {
    let bytes: UnsafeRawBufferPointer
    let offsetSize: Int
    let referenceSize: Int
    let count: Int
    let top: Int
    /// Where the offset table starts: the objects lie in 8..<table.
    let table: Int

    init(_ bytes: UnsafeRawBufferPointer) throws(BinaryPropertyListCheck.Refusal) {
        self.bytes = bytes
        guard bytes.count >= 8 + 1 + 32 else {
            throw Self.refusal("of \(bytes.count) bytes, too few for its 8-byte header, an object and its 32-byte trailer")
        }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        let count = Self.integer(bytes, at: trailer + 8, width: 8)
        let top = Self.integer(bytes, at: trailer + 16, width: 8)
        let table = Self.integer(bytes, at: trailer + 24, width: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw Self.refusal(
                "whose trailer (at byte \(trailer)) gives offsets of \(offsetSize) bytes and references of \(referenceSize); each is 1 to 8"
            )
        }
        guard table >= 9, table < UInt64(trailer), count >= 1, count <= (UInt64(trailer) - table) / UInt64(offsetSize),
            table + count * UInt64(offsetSize) == UInt64(trailer)
        else {
            throw Self.refusal(
                "whose trailer (at byte \(trailer)) puts an offset table of \(count) \(offsetSize)-byte offsets at byte \(table), "
                    + "which does not end where the trailer starts")
        }
        // Each object a writer writes is at least one value of what it wrote.
        guard count <= BinaryPropertyListCheck.valueLimit else {
            throw Self.refusal("of \(count) objects, more than the \(BinaryPropertyListCheck.valueLimit) values the host parses")
        }
        guard top < count else {
            throw Self.refusal("whose trailer (at byte \(trailer)) names object \(top) as the top one, of \(count) objects")
        }
        self.count = Int(count)
        self.top = Int(top)
        self.table = Int(table)
    }

    /// A container: where its references start and how many it has (a dictionary's keys, then its values).
    struct Container {
        let object: Int
        let offset: Int
        let references: Int
        let start: Int
    }

    /// Walks the graph from the top object, depth first without recursion, each object once:
    /// `values[i]` is 0 before object i is reached, `inProgress` while its references are
    /// walked, then its size in values.
    func walk() throws(BinaryPropertyListCheck.Refusal) {
        let limit = BinaryPropertyListCheck.valueLimit
        let inProgress = UInt32.max
        var values = [UInt32](repeating: 0, count: count)
        var stack: [(container: Container, next: Int, total: Int)] = []
        guard let first = try container(top) else { return }
        values[top] = inProgress
        stack.append((first, 0, 1))
        while let frame = stack.last {
            let current = stack.count - 1
            guard frame.next < frame.container.references else {
                stack.removeLast()
                values[frame.container.object] = UInt32(frame.total)
                guard let parent = stack.indices.last else { return }
                stack[parent].total += frame.total
                if stack[parent].total > limit { throw expansion(stack[parent].container, child: frame.container.object, values) }
                continue
            }
            stack[current].next += 1
            let child = try reference(frame.next, of: frame.container)
            switch values[child] {
            case inProgress:
                throw Self.refusal(
                    "whose object \(child) (at byte \(offset(of: child))) contains itself, through object \(frame.container.object)")
            case 0:
                if let nested = try container(child) {
                    values[child] = inProgress
                    stack.append((nested, 0, 1))
                    continue
                }
                values[child] = 1
            default:
                break
            }
            stack[current].total += Int(values[child])
            if stack[current].total > limit { throw expansion(frame.container, child: child, values) }
        }
    }

    /// The refusal of a list whose references in `parent`, the last to `child`, make more than the limit.
    private func expansion(_ parent: Container, child: Int, _ values: [UInt32]) -> BinaryPropertyListCheck.Refusal {
        var times = 0
        for index in 0..<parent.references where (try? reference(index, of: parent)) == child { times += 1 }
        let size = values[child] == 1 ? "" : " of \(values[child]) values"
        return Self.refusal(
            "whose references expand to more than \(BinaryPropertyListCheck.valueLimit) values, which Foundation builds one by one "
                + "(object \(parent.object), \(kind(of: parent.object)) of \(parent.references) references at byte \(parent.offset), "
                + "refers \(times == 1 ? "once" : "\(times) times") to object \(child), \(kind(of: child))\(size)); "
                + "the host parses at most \(BinaryPropertyListCheck.valueLimit) values")
    }

    /// The byte offset of `object` as its table gives it (checked when the object is first reached).
    private func offset(of object: Int) -> UInt64 {
        Self.integer(bytes, at: table + object * offsetSize, width: offsetSize)
    }

    /// Object `object` when it is a container (an array, ordered set, set or dictionary), its
    /// references within the objects; nil for any other object, whose bytes Foundation checks.
    private func container(_ object: Int) throws(BinaryPropertyListCheck.Refusal) -> Container? {
        let given = offset(of: object)
        guard given >= 8, given < UInt64(table) else {
            throw Self.refusal("whose object \(object) is at byte \(given), outside the objects (bytes 8 to \(table - 1))")
        }
        let offset = Int(given)
        let marker = bytes[offset]
        guard (0xA...0xD).contains(marker >> 4) else { return nil }
        var count = Int(marker & 0x0F)
        var start = offset + 1
        if count == 0x0F {
            // The count is an integer object of 1, 2, 4 or 8 bytes after the marker.
            guard start < table, bytes[start] >> 4 == 1, bytes[start] & 0x0F <= 3, start + 1 + (1 << (bytes[start] & 0x0F)) <= table else {
                throw Self.refusal("whose object \(object) (at byte \(offset)) has no integer count of 1 to 8 bytes at byte \(start)")
            }
            let width = 1 << Int(bytes[start] & 0x0F)
            let value = Self.integer(bytes, at: start + 1, width: width)
            guard value <= UInt64(table) else {
                throw Self.refusal("whose object \(object) (at byte \(offset)) counts \(value) entries, more than the file's bytes")
            }
            count = Int(value)
            start += 1 + width
        }
        let references = marker >> 4 == 0xD ? 2 * count : count
        guard references * referenceSize <= table - start else {
            throw Self.refusal(
                "whose object \(object) (at byte \(offset)) holds \(references) \(referenceSize)-byte references past the end of the objects "
                    + "(byte \(table))")
        }
        return Container(object: object, offset: offset, references: references, start: start)
    }

    /// The object that reference `index` of `container` names.
    private func reference(_ index: Int, of container: Container) throws(BinaryPropertyListCheck.Refusal) -> Int {
        let at = container.start + index * referenceSize
        let object = Self.integer(bytes, at: at, width: referenceSize)
        guard object < UInt64(count) else {
            throw Self.refusal("whose reference at byte \(at) (in object \(container.object)) names object \(object), of \(count) objects")
        }
        return Int(object)
    }

    /// What the marker of `object` says it is, for messages.
    private func kind(of object: Int) -> String {
        let marker = bytes[Int(offset(of: object))]
        return switch marker >> 4 {
        case 0x0: "a Boolean or null"
        case 0x1: "an integer"
        case 0x2: "a real"
        case 0x3: "a date"
        case 0x4: "data"
        case 0x5, 0x6, 0x7: "a string"
        case 0x8: "a UID"
        case 0xA: "an array"
        case 0xB: "an ordered set"
        case 0xC: "a set"
        case 0xD: "a dictionary"
        default: "an object of marker 0x\(String(marker, radix: 16))"
        }
    }

    /// The big-endian unsigned integer of `width` bytes at `offset` (in bounds).
    private static func integer(_ bytes: UnsafeRawBufferPointer, at offset: Int, width: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<offset + width { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    private static func refusal(_ text: String) -> BinaryPropertyListCheck.Refusal {
        BinaryPropertyListCheck.Refusal(description: "is a binary property list " + text)
    }
}

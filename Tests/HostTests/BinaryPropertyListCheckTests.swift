import Foundation
import PropertyListSupport
import SandglassHost
import Testing

/// The check of a binary property list before Foundation parses it: what expands past the
/// limit, what is out of bounds and what refers to itself is refused, saying where; what
/// Foundation's writer makes passes.
@Suite("Binary property list check")
struct BinaryPropertyListCheckTests {
    /// The refusal of `plist`, nil when it passes.
    private func refusal(_ plist: BinaryPlist) -> String? {
        refusal(plist.data)
    }

    private func refusal(_ data: Data) -> String? {
        do {
            try BinaryPropertyListCheck.check(data)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("what Foundation writes passes: equal strings shared, and one array instance written twice (CF's writer shares it)")
    func foundationsOwn() throws {
        let tags = NSMutableArray(array: ["a", "b"])
        let shared: NSDictionary = ["x": tags, "y": tags, "z": ["a", "a", 1, 1.5, Date(), Data([1])] as NSArray]
        let binary = try PropertyListSerialization.data(fromPropertyList: shared, format: .binary, options: 0)
        #expect(refusal(binary) == nil)
        let root = try #require(try PropertyListSerialization.propertyList(from: binary, format: nil) as? [String: Any])
        #expect(root["x"] as? [String] == ["a", "b"] && root["y"] as? [String] == ["a", "b"])
        let xml = try PropertyListSerialization.data(fromPropertyList: shared, format: .xml, options: 0)
        #expect(refusal(xml) == nil)
        #expect(refusal(Data()) == nil)
    }

    @Test("a list of shared references is refused at the array whose references pass the limit, naming it")
    func sharedReferences() {
        #expect(refusal(.sharedReferenceBomb(levels: 18)) == nil, "2^19 values: under the limit")
        let message = refusal(.sharedReferenceBomb(levels: 40))
        // Object 2 + i expands to 2^(levels - i + 1) - 1 values: object 23 is the first past 10^6.
        #expect(
            message
                == "is a binary property list whose references expand to more than 1000000 values, which Foundation builds one by one "
                + "(object 23, an array of 2 references at byte 84, refers 2 times to object 24, an array of 524287 values); "
                + "the host parses at most 1000000 values")
    }

    @Test("a flat array of references to one string past the limit of values is refused, as is a list of more objects; any bplist0?")
    func flatArray() {
        let under = BinaryPlist([.array(Array(repeating: 1, count: 999_999)), .string("x")])
        #expect(refusal(under) == nil)
        let over = BinaryPlist([.array(Array(repeating: 1, count: 1_000_000)), .string("x")]).data
        #expect(refusal(over)?.contains("refers 1000000 times to object 1, a string)") == true, "\(refusal(over) ?? "")")
        var otherVersion = Array(over)
        otherVersion[7] = UInt8(ascii: "1") // CF parses any "bplist0?"
        #expect(refusal(Data(otherVersion)) != nil)
        let many = BinaryPlist(Array(repeating: .raw([0x08]), count: 1_000_001))
        #expect(refusal(many) == "is a binary property list of 1000001 objects, more than the 1000000 values the host parses")
    }

    @Test("an array that contains itself is refused")
    func cycle() {
        let plist = BinaryPlist([.dictionary([(1, 2)]), .string("k"), .array([3]), .array([2])])
        #expect(refusal(plist) == "is a binary property list whose object 2 (at byte 13) contains itself, through object 3")
    }

    @Test("a structure out of bounds is refused, naming the byte")
    func outOfBounds() {
        var reference = BinaryPlist([.array([5])])
        #expect(refusal(reference) == "is a binary property list whose reference at byte 9 (in object 0) names object 5, of 1 objects")
        reference = BinaryPlist([.array([1]), .string("x")])
        reference.offsetPatch[1] = 4
        #expect(refusal(reference) == "is a binary property list whose object 1 is at byte 4, outside the objects (bytes 8 to 11)")
        var sizes = BinaryPlist([.string("x")])
        sizes.trailerPatch = [(6, 0)]
        #expect(refusal(sizes)?.contains("whose trailer (at byte 11) gives offsets of 0 bytes and references of 1; each is 1 to 8") == true)
        sizes.trailerPatch = [(7, 9)]
        #expect(refusal(sizes)?.contains("references of 9") == true)
        var table = BinaryPlist([.string("x")])
        table.trailerPatch = [(15, 2)]
        #expect(
            refusal(table)?.contains("an offset table of 2 1-byte offsets at byte 10, which does not end where the trailer starts") == true)
        table.trailerPatch = [(23, 1)]
        #expect(refusal(table) == "is a binary property list whose trailer (at byte 11) names object 1 as the top one, of 1 objects")
        // An array of 0xF entries whose count is a 16-byte integer, and one counting past the objects.
        let count = BinaryPlist([.raw([0xAF, 0x14] + Array(repeating: 0, count: 16))])
        #expect(refusal(count) == "is a binary property list whose object 0 (at byte 8) has no integer count of 1 to 8 bytes at byte 9")
        let long = BinaryPlist([.raw([0xAF, 0x10, 2, 0])])
        #expect(
            refusal(long)
                == "is a binary property list whose object 0 (at byte 8) holds 2 1-byte references past the end of the objects (byte 12)")
        #expect(
            refusal(Data("bplist00".utf8))
                == "is a binary property list of 8 bytes, too few for its 8-byte header, an object and its 32-byte trailer")
    }
}

import SandglassIPC
import Testing

/// The view tree's own encoding: it survives a round trip; a tree the host could not draw —
/// another format, too many nodes, child counts that do not add up — is a malformed payload.
@Suite("View trees")
struct ViewTreeTests {
    @Test("a tree with every kind of node survives a round trip; its plain text is its texts")
    func roundTrip() throws {
        let tree = Samples.view.light
        #expect(try ViewTreeCodec.tree(from: ViewTreeCodec.bytes(of: tree)) == tree)
        #expect(tree.plainText == Samples.unicode + " ")
    }

    private func refused(_ tree: ViewTree) -> String? {
        do {
            _ = try ViewTreeCodec.tree(from: ViewTreeCodec.bytes(of: tree))
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("another format, child counts past the end, or more nodes than the limit are refused, naming why")
    func refusals() {
        var tree = ViewTree(
            width: 10, height: 10, cornerRadius: 0, family: "systemSmall",
            nodes: [
                ViewNode(kind: .group, x: 0, y: 0, width: 1, height: 1, childCount: 2),
                ViewNode(kind: .shape, x: 0, y: 0, width: 1, height: 1)
            ])
        #expect(refused(tree)?.contains("child counts promise 1 more nodes") == true)
        tree.nodes[0].childCount = 1
        #expect(refused(tree) == nil)
        tree.format = 9
        #expect(refused(tree)?.contains("view format: 9") == true)

        let many = ViewTree(
            width: 1, height: 1, cornerRadius: 0, family: "",
            nodes: Array(
                repeating: ViewNode(kind: .shape, x: 0, y: 0, width: 0, height: 0),
                count: ViewTreeCodec.maximumNodes + 1))
        #expect(refused(many)?.contains("over the limit of \(ViewTreeCodec.maximumNodes)") == true)

        let deep = ViewTree(
            width: 1, height: 1, cornerRadius: 0, family: "",
            nodes: Array(
                repeating: ViewNode(kind: .group, x: 0, y: 0, width: 0, height: 0, childCount: 1), count: ViewTreeCodec.maximumDepth + 1)
                + [ViewNode(kind: .shape, x: 0, y: 0, width: 0, height: 0)])
        #expect(refused(deep)?.contains("nested deeper than") == true)
    }
}

import Foundation
import SandglassIPC
import Testing

@testable import SandglassHost

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The drawing of a widget's view: what the log records reads back as it was; the SVG is the
/// tree's layout, resolves dynamic dates at the instant drawn, redacts placeholders, and stays
/// well-formed whatever an extension put in its tree.
@Suite("Widget drawing")
struct WidgetDrawingTests {
    @Test(
        "a tree that claims 10^7 points square, with a text of 10^7 points: drawn at its family's size (the activated one's, when given), its font at most 1,000 points"
    )
    func sizesBounded() throws {
        let huge: Float = 1e7
        let text = ViewNode(
            kind: .text, x: 0, y: 0, width: huge, height: huge,
            text: TextLayout(
                alignment: .leading,
                lines: [
                    TextLine(
                        x: 0, baseline: 17, width: huge,
                        runs: [
                            TextRun(
                                text: "big", size: huge, paint: .color(ColorPair(light: RGBA(0x000000FF), dark: RGBA(0xFFFFFFFF))),
                                width: huge)
                        ])
                ]))
        let view = ViewRendering(
            light: ViewTree(width: huge, height: huge, cornerRadius: 22, family: "systemMedium", nodes: [text]), nanoseconds: 0)
        let svg = WidgetDrawing(view, appearance: .light).svg(at: 0, standalone: true)
        #expect(svg.contains("width=\"364\" height=\"170\" viewBox=\"0 0 364 170\""), "\(svg.prefix(300))")
        #expect(svg.contains("font-size=\"1000\""), "\(svg)")
        #expect(!svg.contains("font-size=\"10000000\"") && !svg.contains("height=\"10000000\""), "\(svg)")
        // A systemSmall activation whose tree claims to be systemMedium: drawn at systemSmall's size.
        let small = WidgetDrawing(view, appearance: .light, family: "systemSmall").svg(at: 0)
        #expect(small.contains("width=\"170\" height=\"170\" viewBox=\"0 0 170 170\""), "\(small.prefix(300))")
    }

    @Test("one text run of a megabyte and one path of a megabyte are left out whole, counted: the drawing stays under its 256 KiB")
    func onePartPastTheBound() {
        let black = ViewPaint.color(ColorPair(light: RGBA(0x000000FF), dark: RGBA(0xFFFFFFFF)))
        let text = ViewNode(
            kind: .text, x: 0, y: 0, width: 100, height: 20,
            text: TextLayout(
                alignment: .leading,
                lines: [
                    TextLine(
                        x: 0, baseline: 17, width: 100,
                        runs: [TextRun(text: String(repeating: "w", count: 1 << 20), size: 12, paint: black, width: 100)])
                ]))
        let path = ViewNode(
            kind: .shape, x: 0, y: 0, width: 100, height: 100, shape: .path(String(repeating: "L1 1 ", count: 200_000)), fill: black)
        let view = ViewRendering(
            light: ViewTree(width: 170, height: 170, cornerRadius: 22, family: "systemSmall", nodes: [text, path]), nanoseconds: 0)
        let svg = WidgetDrawing(view, appearance: .light).svg(at: 0)
        #expect(svg.utf8.count <= (256 << 10) + 4096, "\(svg.utf8.count) bytes")
        #expect(svg.contains("2 parts left out"), "\(svg.suffix(400))")
    }

    @Test("a view survives the event log: its JSON line reads back to the same tree")
    func logRoundTrip() throws {
        let view = ReportFixture.view(score: 3, at: 1_795_000_000)
        let line = HostEvent(t: 1, name: "timeline", fields: [("views", .array([view.json]))]).jsonLine
        let read = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let values = JSONValue(foundation: read)
        guard case .array(let views)? = values["views"] else { Issue.record("no views"); return }
        #expect(ViewRendering(json: views[0]) == view)
    }

    @Test(
        "a timeline of many heavy views: its event carries views up to 20,000 nodes, the rest left out and counted; the line stays bounded")
    func eventViewsBounded() {
        let node = ViewNode(kind: .group, x: 0, y: 0, width: 10, height: 10)
        func rendering(_ nodes: Int, dark: Bool = false) -> ViewRendering {
            let tree = ViewTree(width: 10, height: 10, cornerRadius: 0, family: "systemSmall", nodes: Array(repeating: node, count: nodes))
            return ViewRendering(light: tree, dark: dark ? tree : nil, nanoseconds: 0)
        }
        let (views, leftOut) = ViewRendering.eventViews([
            rendering(8_000), nil, rendering(4_000, dark: true), rendering(8_000), rendering(4_000)
        ])
        #expect(
            views.map { $0 == .null } == [false, true, false, true, false],
            "8,000 nodes, no view, 8,000 (light and dark), 8,000 more left out, 4,000 more")
        #expect(leftOut == 1)
        // 60 entries of 20,000 nodes (the per-tree limit) each: one whole view in the line.
        let heavy = ViewRendering.eventViews(Array(repeating: rendering(20_000), count: 60))
        #expect(heavy.leftOut == 59)
        let line = HostEvent(t: 1, name: "timeline", fields: [("views", .array(heavy.views))]).jsonLine
        #expect(line.utf8.count < 4 << 20, "a line of \(line.utf8.count) bytes")
    }

    @Test(
        "a view's texts count as the log writes them: a note of a million control characters is left out of a timeline event and of an activation's entry, not written as 6 MB"
    )
    func eventViewBytesBounded() {
        let bomb = ViewRendering(
            light: ViewTree(
                width: 10, height: 10, cornerRadius: 0, family: "systemSmall", nodes: [],
                notes: [String(repeating: "\u{1}", count: 1_000_000)]),
            nanoseconds: 0)
        let node = ViewNode(kind: .group, x: 0, y: 0, width: 10, height: 10)
        let plain = ViewRendering(
            light: ViewTree(width: 10, height: 10, cornerRadius: 0, family: "systemSmall", nodes: [node]), nanoseconds: 0)
        let (views, leftOut) = ViewRendering.eventViews([bomb, plain, bomb])
        #expect(views.map { $0 == .null } == [true, false, true], "the notes left out, the plain view kept")
        #expect(leftOut == 2)
        let line = HostEvent(t: 1, name: "timeline", fields: [("views", .array(views))]).jsonLine
        #expect(line.utf8.count <= ViewRendering.bytesPerEvent, "a line of \(line.utf8.count) bytes")
        #expect(ViewRendering(json: views[1])?.light.nodes.count == 1, "the kept view reads back")

        let entry = entryJSON(EntryPayload(date: 0, json: Array("{}".utf8), view: bomb))
        #expect(entry.utf8.count <= ViewRendering.bytesPerEvent, "an entry of \(entry.utf8.count) bytes")
        #expect(entry.contains("left out"))
        #expect(entryJSON(EntryPayload(date: 0, json: Array("{}".utf8), view: plain)).contains("\"nodes\""))
    }

    @Test("the SVG places each node at its frame; a timer reads as it would at the instant drawn; dark uses the dark colours")
    func svg() throws {
        let view = ReportFixture.view(score: 3, at: 1_795_000_000)
        let light = WidgetDrawing(view, appearance: .light).svg(at: 1_795_000_000, standalone: true)
        #expect(light.hasPrefix("<?xml"))
        #expect(light.contains("width=\"170\" height=\"170\""))
        #expect(light.contains("x=\"16\" y=\"33\"") && light.contains(">Ada leads with 3</text>"))
        #expect(light.contains(">5:00</text>"))
        #expect(WidgetDrawing(view, appearance: .light).svg(at: 1_795_000_000 + 61).contains(">3:59</text>"))
        #expect(light.contains("stop-color=\"rgb(0,122,255)\""))
        #expect(WidgetDrawing(view, appearance: .dark).svg(at: 0).contains("stop-color=\"rgb(10,132,255)\""))
        try XMLDocument.check(light)
    }

    @Test("redacted text is drawn as bars, not its words")
    func redacted() {
        var view = ReportFixture.view(score: 3, at: 0)
        view.light.nodes[2].flags.insert(.redacted)
        let svg = WidgetDrawing(view, appearance: .light).svg(at: 0)
        #expect(!svg.contains("Ada leads"))
        #expect(svg.contains("class=\"redacted\""))
    }

    @Test("what a hostile extension puts in its tree is escaped; counts past the end are cut; the drawing stays well-formed")
    func hostileTree() throws {
        var view = ReportFixture.view(score: 3, at: 0)
        view.light.nodes[1].shape = .path("M0 0\"/><script>alert(1)</script><path d=\"")
        view.light.nodes[2].text?.lines[0].runs[0].text = "</text><script>x()</script>\u{1}"
        view.light.nodes[3].x = .nan
        view.light.nodes[0].childCount = 1_000
        let json = view.json
        let read = try #require(ViewRendering(json: json))
        #expect(read.light.nodes[0].childCount == 3, "the group keeps the children that follow it")
        let svg = WidgetDrawing(read, appearance: .light).svg(at: 0, standalone: true)
        #expect(!svg.contains("<script"))
        try XMLDocument.check(svg)
    }

    /// A view of one text node with 23,000 empty runs — within the 1 MiB a view takes in the log.
    static func runFlood() -> ViewRendering {
        let run = TextRun(text: "", size: 0, paint: .named(""), width: 0)
        let text = TextLayout(
            alignment: .leading, lines: [TextLine(x: 0, baseline: 10, width: 0, runs: Array(repeating: run, count: 23_000))])
        let node = ViewNode(kind: .text, x: 0, y: 0, width: 170, height: 170, text: text)
        return ViewRendering(
            light: ViewTree(width: 170, height: 170, cornerRadius: 22, family: "systemSmall", nodes: [node]), nanoseconds: 0)
    }

    @Test("a text of 23,000 runs is drawn up to 256 KiB, the rest counted on the drawing; it stays well-formed")
    func drawingBounded() throws {
        let read = try #require(ViewRendering(json: Self.runFlood().json))
        let svg = WidgetDrawing(read, appearance: .light).svg(at: 0, standalone: true)
        #expect(svg.utf8.count <= (256 + 8) << 10, "a drawing of \(svg.utf8.count) bytes")
        #expect(svg.contains("parts left out"))
        try XMLDocument.check(svg)
    }
}

extension XMLDocument {
    /// Throws when `text` is not well-formed XML.
    static func check(_ text: String) throws {
        _ = try XMLDocument(data: Data(text.utf8), options: [])
    }
}

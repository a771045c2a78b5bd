import SandglassIPC
import SwiftUI
import Testing

/// SwiftUI's layout as the SDK reproduces it, on views evaluated in process: stacks share their
/// room by flexibility, spacers push, frames bound, text wraps and is cut, shapes take what they
/// are offered.
@Suite("layout of views")
@MainActor
struct LayoutTests {
    private func render<V: View>(_ view: V, width: CGFloat = 170, height: CGFloat = 170, margins: CGFloat = 16) -> ViewTree {
        let request = WidgetRenderRequest(
            size: CGSize(width: width, height: height), cornerRadius: 22,
            contentMargins: EdgeInsets(top: margins, leading: margins, bottom: margins, trailing: margins),
            family: "systemSmall", showsContainerBackground: false,
            date: Date(timeIntervalSince1970: 1_750_000_000), environment: EnvironmentValues())
        return WidgetRenderer.render(view, request).light
    }

    private func node(_ tree: ViewTree, text: String) -> ViewNode? {
        tree.nodes.first { $0.text?.lines.map { $0.runs.map(\.text).joined() }.joined(separator: " ") == text }
    }

    /// A custom shape: its path is view code, called from layout.
    private struct Diamond: Shape {
        func path(in rect: CGRect) -> Path {
            var path = Path()
            path.move(to: CGPoint(x: rect.midX, y: rect.minY))
            path.addLine(to: CGPoint(x: rect.maxX, y: rect.midY))
            path.addLine(to: CGPoint(x: rect.midX, y: rect.maxY))
            path.addLine(to: CGPoint(x: rect.minX, y: rect.midY))
            path.closeSubpath()
            return path
        }
    }

    @Test("view code from layout: a GeometryReader's content made for the size it is given; a custom shape's path drawn in its frame")
    func viewCodeFromLayout() throws {
        let reader = render(GeometryReader { proxy in Text("\(Int(proxy.size.width))×\(Int(proxy.size.height))") })
        #expect(node(reader, text: "138×138") != nil, "the reader takes the room inside the margins: \(reader.nodes)")
        let shapes = render(Diamond().fill(Color.red).frame(width: 40, height: 20))
        let diamond = try #require(shapes.nodes.first { $0.kind == .shape })
        #expect(diamond.width == 40 && diamond.height == 20)
        guard case .path(let data)? = diamond.shape else {
            Issue.record("the custom shape was not drawn as a path: \(diamond)")
            return
        }
        #expect(data.hasPrefix("M"), "its outline, from its path(in:): \(data)")
    }

    @Test("HStack with a Spacer: the texts at the leading and trailing margins, centred vertically in the widget")
    func spacerPushes() throws {
        let tree = render(
            HStack {
                Text("A"); Spacer(); Text("B")
            })
        let a = try #require(node(tree, text: "A")), b = try #require(node(tree, text: "B"))
        #expect(a.x == 16)
        #expect(abs(b.x + b.width - 154) < 0.01)
        #expect(abs(a.y + a.height / 2 - 85) < 0.51, "the stack is as tall as a line, centred: \(a)")
    }

    @Test("VStack: children 8 points apart by default; alignment leading")
    func vstackSpacing() throws {
        let tree = render(
            VStack(alignment: .leading) {
                Text("One"); Text("Two, longer")
            })
        let one = try #require(node(tree, text: "One")), two = try #require(node(tree, text: "Two, longer"))
        #expect(abs(two.y - (one.y + one.height + 8)) < 0.01)
        #expect(one.x == two.x)
    }

    @Test("frame(maxWidth: .infinity) takes the width offered; a background colour fills it")
    func flexibleFrame() throws {
        let tree = render(Text("Hi").frame(maxWidth: .infinity).background(Color.red))
        let fill = try #require(tree.nodes.first { $0.kind == .shape })
        #expect(fill.x == 16 && fill.width == 138)
        #expect(fill.fill == .color(ColorPair(light: RGBA(0xFF3B30FF), dark: RGBA(0xFF453AFF))))
        let text = try #require(node(tree, text: "Hi"))
        #expect(abs(text.x + text.width / 2 - 85) < 0.01, "centred in the frame")
    }

    @Test("text wraps at spaces within the width offered; lineLimit cuts it with an ellipsis")
    func wrapping() throws {
        let long = "The quick brown fox jumps over the lazy dog again and again"
        let wrapped = render(Text(long))
        let lines = try #require(wrapped.nodes.first { $0.kind == .text }?.text?.lines)
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.width <= 138.01 })
        #expect(lines.map { $0.runs.map(\.text).joined() }.joined(separator: " ") == long, "broken between words, nothing lost")
        let cut = render(Text(long).lineLimit(1))
        let line = try #require(cut.nodes.first { $0.kind == .text }?.text?.lines)
        #expect(line.count == 1)
        #expect(line[0].runs.last?.text.hasSuffix("…") == true)
    }

    @Test("padding and a fixed frame: the frame's size, the text inset; ContainerRelativeShape is concentric with the widget")
    func paddingAndShapes() throws {
        let tree = render(
            ZStack {
                ContainerRelativeShape().fill(.blue)
                Text("x").padding(10).frame(width: 100, height: 60, alignment: .topLeading)
            }, margins: 8)
        let shape = try #require(tree.nodes.first { $0.kind == .shape })
        #expect(shape.shape == .roundedRectangle(radius: 14), "22 less the 8-point margin")
        let text = try #require(node(tree, text: "x"))
        #expect(
            text.x == 35 + 10 && text.y == 55 + 10, "the 100 × 60 frame centred in the widget, the text padded at its top leading corner")
    }

    @Test("Gauge and ProgressView: a bar filled to the value; an inline symbol and a formatted number in a Text")
    func controls() throws {
        let tree = render(
            VStack {
                Gauge(value: 0.25) { Text("Fuel") }
                ProgressView(value: 3, total: 4)
                Text("\(Image(systemName: "star.fill")) \(4.5, specifier: "%.1f")")
            })
        #expect(tree.nodes.contains { $0.kind == .gauge && $0.meter?.fraction == 0.25 })
        #expect(tree.nodes.contains { $0.kind == .progress && $0.meter?.fraction == 0.75 })
        let runs = tree.nodes.compactMap(\.text).flatMap { $0.lines.flatMap(\.runs) }
        #expect(runs.contains { $0.decoration.contains(.symbol) && $0.text == "star.fill" })
        #expect(runs.contains { $0.text == " 4.5" })
    }
}

import Foundation
import SandglassIPC

/// A widget's view drawn as SVG: a faithful layout of the tree the extension rendered — frames,
/// text runs at the widths the SDK measured, colours, gradients, shapes, images by name and
/// size — not Apple's pixels. Dates that change with time (`.relative`, `.offset`, `.timer`,
/// `timerInterval`, `ProgressView(timerInterval:)`) are resolved at the instant drawn; a
/// placeholder's redacted text is drawn as grey bars; the Lock Screen families are drawn
/// desaturated on a dark backdrop, as their vibrant rendering mode shows them.
///
/// ```swift
/// let svg = WidgetDrawing(rendering, appearance: .dark).svg(at: entryDate)
/// ```
public struct WidgetDrawing: Sendable {
    /// Light or dark.
    public enum Appearance: String, Sendable, CaseIterable {
        case light, dark
    }

    public let rendering: ViewRendering
    public let appearance: Appearance
    /// Prefixes the ids of gradients, clips and filters, unique within a page.
    public var idPrefix: String
    /// The family the host activated the widget in, whose size bounds the drawing; nil: the
    /// family the tree names.
    public var family: String?

    public init(_ rendering: ViewRendering, appearance: Appearance, idPrefix: String = "w", family: String? = nil) {
        self.rendering = rendering
        self.appearance = appearance
        self.idPrefix = idPrefix
        self.family = family
    }

    /// The appearance drawn: the Lock Screen families are drawn light on its dark backdrop
    /// whatever the appearance.
    var drawnAppearance: Appearance {
        rendering.light.family.hasPrefix("accessory") ? .dark : appearance
    }

    /// The drawing's size in points: the tree's, at most its family's (``family``, else the
    /// tree's own), whatever the tree says (a tree of 10^7 points square was a drawing no viewer
    /// or rasteriser takes, and pushed the report's page off the screen).
    public var size: (width: Double, height: Double) {
        let tree = self.tree
        let family = WidgetFamilies.size(of: self.family ?? tree.family)
        return (min(max(1, Double(tree.width)), family.width), min(max(1, Double(tree.height)), family.height))
    }

    /// The tree drawn: the dark one when the view depended on the colour scheme.
    var tree: ViewTree {
        drawnAppearance == .dark ? rendering.dark ?? rendering.light : rendering.light
    }

    /// The drawing as an `<svg>` element, `now` in seconds since 1970; `standalone` adds the
    /// XML declaration a `.svg` file starts with.
    public func svg(at now: Double, standalone: Bool = false, scale: Double = 1) -> String {
        let tree = self.tree
        let accessory = tree.family.hasPrefix("accessory")
        var canvas = Canvas(appearance: drawnAppearance, prefix: idPrefix, now: now)
        let (w, h) = size
        var out = standalone ? "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" : ""
        out +=
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"widget-drawing\" width=\"\(n(w * scale))\" height=\"\(n(h * scale))\" viewBox=\"0 0 \(n(w)) \(n(h))\""
        out += " data-family=\"\(esc(named(tree.family)))\" data-appearance=\"\(appearance.rawValue)\">"
        if accessory {
            out += "<rect width=\"\(n(w))\" height=\"\(n(h))\" fill=\"\(appearance == .dark ? "#000000" : "#3A3A4C")\"/>"
            canvas.body += "<g style=\"filter:grayscale(1)\">"
        }
        var index = 0
        while index < tree.nodes.count {
            index = canvas.draw(tree.nodes, index, depth: 0)
        }
        if accessory { canvas.body += "</g>" }
        if canvas.leftOut > 0 {
            canvas.body +=
                "<text class=\"left-out\" x=\"4\" y=\"\(n(max(12, h - 4)))\" font-size=\"10\" fill=\"#FF3B30\">\(canvas.leftOut) parts left out: a drawing takes at most \(Canvas.maximumBytes >> 10) KiB</text>"
        }
        if !canvas.defs.isEmpty { out += "<defs>\(canvas.defs)</defs>" }
        out += canvas.body + "</svg>"
        return out
    }
}

/// The SVG being written for one drawing.
private struct Canvas {
    let appearance: WidgetDrawing.Appearance
    let prefix: String
    let now: Double
    var defs = ""
    var body = ""
    var nextID = 0
    /// Nodes and text runs not drawn: the drawing was full.
    var leftOut = 0

    /// The most a drawing writes: a view of 20,000 nodes, or a text of thousands of runs, is
    /// drawn up to this and the rest counted — a real widget's drawing takes a few KiB, and a
    /// report draws hundreds of them.
    static let maximumBytes = 256 << 10
    /// Gradient stops and dash lengths drawn, at most, each.
    static let maximumStops = 64

    /// Whether the drawing has written all it may.
    var isFull: Bool { body.utf8.count + defs.utf8.count >= Self.maximumBytes }

    /// Whether `part` fits in what the drawing may still write: one path or text of a megabyte
    /// is left out whole (counted), not written past the bound.
    func fits(_ part: String) -> Bool { body.utf8.count + defs.utf8.count + part.utf8.count <= Self.maximumBytes }

    init(appearance: WidgetDrawing.Appearance, prefix: String, now: Double) {
        self.appearance = appearance
        self.prefix = prefix
        self.now = now
    }

    mutating func newID(_ kind: String) -> String {
        nextID += 1
        return "\(prefix)-\(kind)\(nextID)"
    }

    /// Draws the node at `index` and its children; returns the index after them.
    mutating func draw(_ nodes: [ViewNode], _ index: Int, depth: Int) -> Int {
        let node = nodes[index]
        let frame = (x: Double(node.x), y: Double(node.y), w: Double(node.width), h: Double(node.height))
        var next = index + 1
        if isFull {
            // Full: this node and its children are counted, not drawn.
            leftOut += 1
            for _ in 0..<node.childCount where next < nodes.count && depth < ViewTreeCodec.maximumDepth {
                next = draw(nodes, next, depth: depth + 1)
            }
            return next
        }
        switch node.kind {
        case .group:
            var attributes = ""
            if node.opacity < 1 { attributes += " opacity=\"\(n(Double(node.opacity)))\"" }
            if node.rotation != 0 {
                attributes += " transform=\"rotate(\(n(Double(node.rotation))) \(n(frame.x + frame.w / 2)) \(n(frame.y + frame.h / 2)))\""
            }
            if let shape = node.shape {
                let id = newID("clip")
                let clip = "<clipPath id=\"\(id)\">\(element(shape, frame, inset: 0))</clipPath>"
                if fits(clip) {
                    defs += clip
                    attributes += " clip-path=\"url(#\(id))\""
                } else {
                    leftOut += 1
                }
            }
            if let shadow = node.shadow {
                let id = newID("shadow")
                let c = color(shadow.color)
                defs +=
                    "<filter id=\"\(id)\" x=\"-50%\" y=\"-50%\" width=\"200%\" height=\"200%\"><feDropShadow dx=\"\(n(Double(shadow.x)))\" dy=\"\(n(Double(shadow.y)))\" stdDeviation=\"\(n(bounded(Double(shadow.radius)) / 2))\" flood-color=\"\(c.rgb)\" flood-opacity=\"\(n(c.alpha))\"/></filter>"
                attributes += " filter=\"url(#\(id))\""
            }
            if node.flags.contains(.containerBackground) { attributes += " class=\"container-background\"" }
            if let url = node.url { attributes += " data-url=\"\(esc(named(url)))\"" }
            if let intent = node.intent { attributes += " data-intent=\"\(esc(named(intent)))\"" }
            body += "<g\(attributes)>"
            if let label = node.label ?? node.intent ?? node.url { body += "<title>\(esc(named(label)))</title>" }
            for _ in 0..<node.childCount where next < nodes.count && depth < ViewTreeCodec.maximumDepth {
                next = draw(nodes, next, depth: depth + 1)
            }
            body += "</g>"
            return next
        case .shape:
            drawShape(node, frame)
        case .text:
            drawText(node, frame)
        case .image:
            drawImage(node, frame)
        case .gauge, .progress:
            drawMeter(node, frame)
        case .toggle:
            let on = node.flags.contains(.isOn)
            let track = on ? paint(node.fill ?? .color(ColorPair(RGBA(0x34C759FF)))) : "rgba(120,120,128,0.32)"
            body +=
                "<rect x=\"\(n(frame.x))\" y=\"\(n(frame.y))\" width=\"\(n(frame.w))\" height=\"\(n(frame.h))\" rx=\"\(n(frame.h / 2))\" fill=\"\(track)\"/>"
            let r = frame.h / 2 - 2
            body +=
                "<circle cx=\"\(n(on ? frame.x + frame.w - r - 2 : frame.x + r + 2))\" cy=\"\(n(frame.y + frame.h / 2))\" r=\"\(n(r))\" fill=\"#FFFFFF\"/>"
        }
        // A leaf with children (never sent by the SDK): draw them after it.
        for _ in 0..<node.childCount where next < nodes.count && depth < ViewTreeCodec.maximumDepth {
            next = draw(nodes, next, depth: depth + 1)
        }
        return next
    }

    // MARK: shapes

    /// An SVG element for `shape` in `frame`, drawn inset by `inset` points.
    func element(
        _ shape: ViewShape, _ frame: (x: Double, y: Double, w: Double, h: Double), inset: Double, attributes: String = ""
    ) -> String {
        let x = frame.x + inset, y = frame.y + inset, w = max(0, frame.w - 2 * inset), h = max(0, frame.h - 2 * inset)
        switch shape {
        case .rectangle:
            return "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(w))\" height=\"\(n(h))\"\(attributes)/>"
        case .roundedRectangle(let radius):
            let r = min(max(0, Double(radius) - inset), w / 2, h / 2)
            return "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(w))\" height=\"\(n(h))\" rx=\"\(n(r))\"\(attributes)/>"
        case .capsule:
            return "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(w))\" height=\"\(n(h))\" rx=\"\(n(min(w, h) / 2))\"\(attributes)/>"
        case .ellipse:
            return "<ellipse cx=\"\(n(x + w / 2))\" cy=\"\(n(y + h / 2))\" rx=\"\(n(w / 2))\" ry=\"\(n(h / 2))\"\(attributes)/>"
        case .path(let data):
            return "<path d=\"\(esc(data))\"\(attributes)/>"
        case .trimmed(let base, let from, let to):
            let a = Double(min(max(from, 0), 1)), b = Double(min(max(to, 0), 1))
            let dash = " pathLength=\"1\" stroke-dasharray=\"\(n(max(0, b - a))) 1\" stroke-dashoffset=\"\(n(-a))\""
            return element(base, frame, inset: inset, attributes: attributes + dash)
        }
    }

    mutating func drawShape(_ node: ViewNode, _ frame: (x: Double, y: Double, w: Double, h: Double)) {
        let shape = node.shape ?? .rectangle
        var attributes = ""
        var inset = 0.0
        if let stroke = node.stroke {
            let strokePaint = paint(stroke.paint, frame)
            attributes += " fill=\"none\" stroke=\"\(strokePaint)\" stroke-width=\"\(n(Double(stroke.lineWidth)))\""
            if stroke.roundCap { attributes += " stroke-linecap=\"round\"" }
            if !stroke.dash.isEmpty {
                attributes += " stroke-dasharray=\"\(stroke.dash.prefix(Self.maximumStops).map { n(Double($0)) }.joined(separator: " "))\""
            }
            if node.flags.contains(.strokeInside) { inset = Double(stroke.lineWidth) / 2 }
        } else {
            let fill = paint(node.fill ?? .color(ColorPair(light: RGBA(0x000000FF), dark: RGBA(0xFFFFFFFF))), frame)
            attributes += " fill=\"\(fill)\""
        }
        if case .named(let name)? = node.fill ?? node.stroke?.paint { attributes += " data-named-color=\"\(esc(name))\"" }
        let drawn = element(shape, frame, inset: inset, attributes: attributes)
        if fits(drawn) { body += drawn } else { leftOut += 1 }
    }

    // MARK: text

    mutating func drawText(_ node: ViewNode, _ frame: (x: Double, y: Double, w: Double, h: Double)) {
        guard let text = node.text else { return }
        let redacted = node.flags.contains(.redacted)
        for line in text.lines {
            var x = frame.x + Double(line.x)
            let baseline = frame.y + Double(line.baseline)
            for run in line.runs {
                if isFull {
                    leftOut += 1
                    continue
                }
                let width = Double(run.width)
                let size = Double(run.size)
                if redacted {
                    body +=
                        "<rect class=\"redacted\" x=\"\(n(x))\" y=\"\(n(baseline - size * 0.72))\" width=\"\(n(width))\" height=\"\(n(size * 0.82))\" rx=\"\(n(size * 0.2))\" fill=\"\(color(Canvas.redaction).css)\"/>"
                    x += width
                    continue
                }
                var string = run.text
                var fitted = true
                if let dynamic = run.dynamic {
                    string = dynamic.text(at: now)
                    fitted = string == run.text
                }
                if run.decoration.contains(.symbol) { string = SymbolGlyphs.glyph(for: run.text) }
                var attributes = " x=\"\(n(x))\" y=\"\(n(baseline))\" font-size=\"\(n(bounded(size)))\" fill=\"\(paint(run.paint, frame))\""
                attributes += " font-family=\"\(Self.family(run.design))\""
                if run.weight != 400 { attributes += " font-weight=\"\(run.weight)\"" }
                if run.decoration.contains(.italic) { attributes += " font-style=\"italic\"" }
                var decorations: [String] = []
                if run.decoration.contains(.underline) { decorations.append("underline") }
                if run.decoration.contains(.strikethrough) { decorations.append("line-through") }
                if !decorations.isEmpty { attributes += " text-decoration=\"\(decorations.joined(separator: " "))\"" }
                if run.decoration.contains(.monospacedDigits) { attributes += " style=\"font-variant-numeric:tabular-nums\"" }
                if fitted && width > 0 && !run.decoration.contains(.symbol) {
                    attributes += " textLength=\"\(n(width))\" lengthAdjust=\"spacingAndGlyphs\""
                }
                if run.dynamic != nil { attributes += " class=\"dynamic\" data-style=\"\(run.dynamic!.style)\"" }
                var drawn = "<text\(attributes)>\(esc(string))"
                if run.decoration.contains(.symbol) { drawn += "<title>\(esc(run.text))</title>" }
                drawn += "</text>"
                if fits(drawn) { body += drawn } else { leftOut += 1 }
                x += width
            }
        }
    }

    static func family(_ design: TextRun.Design) -> String {
        switch design {
        case .default: "-apple-system, 'SF Pro Text', 'Helvetica Neue', Helvetica, Arial, sans-serif"
        case .rounded: "'SF Pro Rounded', ui-rounded, 'Helvetica Neue', Arial, sans-serif"
        case .serif: "'New York', ui-serif, Georgia, serif"
        case .monospaced: "'SF Mono', ui-monospace, Menlo, monospace"
        }
    }

    // MARK: images

    mutating func drawImage(_ node: ViewNode, _ frame: (x: Double, y: Double, w: Double, h: Double)) {
        guard let image = node.image, frame.w > 0, frame.h > 0 else { return }
        let rect = "x=\"\(n(frame.x))\" y=\"\(n(frame.y))\" width=\"\(n(frame.w))\" height=\"\(n(frame.h))\""
        if node.flags.contains(.redacted) {
            body += "<rect class=\"redacted\" \(rect) rx=\"\(n(min(frame.w, frame.h) / 5))\" fill=\"\(color(Canvas.redaction).css)\"/>"
            return
        }
        switch image.source {
        case .symbol:
            let tint = node.fill.map { paint($0, frame) } ?? color(ColorPair(light: RGBA(0x000000FF), dark: RGBA(0xFFFFFFFF))).css
            let size = min(frame.w / 1.1, frame.h)
            body +=
                "<text class=\"symbol\" x=\"\(n(frame.x + frame.w / 2))\" y=\"\(n(frame.y + frame.h / 2 + size * 0.35))\" font-size=\"\(n(bounded(size)))\" text-anchor=\"middle\" fill=\"\(tint)\" font-family=\"\(Self.family(.default))\">\(esc(SymbolGlyphs.glyph(for: image.name)))<title>\(esc(named(image.name)))</title></text>"
        case .asset, .bitmap:
            let missing = node.flags.contains(.missing)
            let label = image.source == .bitmap ? "\(image.pixelWidth)×\(image.pixelHeight)" : image.name
            body +=
                "<g class=\"image\"><rect \(rect) fill=\"rgba(142,142,147,0.25)\" stroke=\"rgba(142,142,147,0.8)\" stroke-width=\"1\"\(missing ? " stroke-dasharray=\"4 3\"" : "")/>"
            let font = max(6, min(11, frame.h / 3))
            body +=
                "<text x=\"\(n(frame.x + frame.w / 2))\" y=\"\(n(frame.y + frame.h / 2 + font / 3))\" font-size=\"\(n(bounded(font)))\" text-anchor=\"middle\" fill=\"rgba(99,99,102,1)\" font-family=\"\(Self.family(.default))\">\(esc(String(label.prefix(40))))</text>"
            body +=
                "<title>\(esc("\(image.source == .bitmap ? "bitmap" : "image") \(named(image.name)) · \(image.pixelWidth)×\(image.pixelHeight) px\(missing ? " · not in the bundle" : "")"))</title></g>"
        }
    }

    // MARK: gauges and progress

    mutating func drawMeter(_ node: ViewNode, _ frame: (x: Double, y: Double, w: Double, h: Double)) {
        guard let meter = node.meter else { return }
        var fraction = meter.fraction.map(Double.init)
        if let timer = meter.timer {
            let f = timer.fraction(at: now)
            fraction = timer.countsDown ? 1 - f : f
        }
        let value = min(max(fraction ?? 0.25, 0), 1)
        let tint = node.fill.map { paint($0, frame) } ?? "#007AFF"
        let track = "rgba(120,120,128,0.25)"
        switch meter.style {
        case .linear, .linearDot:
            let r = frame.h / 2
            body +=
                "<rect x=\"\(n(frame.x))\" y=\"\(n(frame.y))\" width=\"\(n(frame.w))\" height=\"\(n(frame.h))\" rx=\"\(n(r))\" fill=\"\(track)\"/>"
            if meter.style == .linear {
                body +=
                    "<rect x=\"\(n(frame.x))\" y=\"\(n(frame.y))\" width=\"\(n(frame.w * value))\" height=\"\(n(frame.h))\" rx=\"\(n(r))\" fill=\"\(tint)\"/>"
            } else {
                body +=
                    "<circle cx=\"\(n(frame.x + r + (frame.w - 2 * r) * value))\" cy=\"\(n(frame.y + r))\" r=\"\(n(r + 1))\" fill=\"\(tint)\"/>"
            }
        case .circular, .circularDot:
            let side = min(frame.w, frame.h)
            let line = max(2, side * 0.1)
            let r = side / 2 - line / 2
            let cx = frame.x + frame.w / 2, cy = frame.y + frame.h / 2
            let open = meter.style == .circularDot ? 0.75 : 1.0
            let start = meter.style == .circularDot ? 135.0 : -90.0
            let ring =
                "cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"\(n(r))\" fill=\"none\" stroke-width=\"\(n(line))\" pathLength=\"1\" transform=\"rotate(\(n(start)) \(n(cx)) \(n(cy)))\""
            body += "<circle \(ring) stroke=\"\(track)\" stroke-dasharray=\"\(n(open)) 1\" stroke-linecap=\"round\"/>"
            if meter.style == .circular {
                body += "<circle \(ring) stroke=\"\(tint)\" stroke-dasharray=\"\(n(value)) 1\" stroke-linecap=\"round\"/>"
            } else {
                let angle = (start + 270 * value) * .pi / 180
                body +=
                    "<circle cx=\"\(n(cx + r * cos(angle)))\" cy=\"\(n(cy + r * sin(angle)))\" r=\"\(n(line * 0.8))\" fill=\"\(tint)\" stroke=\"#000\" stroke-opacity=\"0.3\"/>"
            }
        }
    }

    // MARK: paint

    /// The grey of redacted text and images.
    static let redaction = ColorPair(light: RGBA(0x3C3C432E), dark: RGBA(0xEBEBF529))

    struct CSSColor {
        let red: UInt8, green: UInt8, blue: UInt8
        let alpha: Double
        var rgb: String { "rgb(\(red),\(green),\(blue))" }
        var css: String { alpha >= 1 ? rgb : "rgba(\(red),\(green),\(blue),\(n(alpha)))" }
    }

    func color(_ pair: ColorPair) -> CSSColor {
        let c = appearance == .dark ? pair.dark : pair.light
        return CSSColor(red: c.red, green: c.green, blue: c.blue, alpha: Double(c.alpha) / 255)
    }

    /// A fill or stroke value: a colour, or a reference to a gradient made for `frame`.
    mutating func paint(_ paint: ViewPaint, _ frame: (x: Double, y: Double, w: Double, h: Double) = (0, 0, 0, 0)) -> String {
        func stops(_ stops: [GradientStopPayload]) -> String {
            stops.prefix(Self.maximumStops).map { stop in
                let c = color(stop.color)
                return
                    "<stop offset=\"\(n(Double(min(max(stop.location, 0), 1))))\" stop-color=\"\(c.rgb)\" stop-opacity=\"\(n(c.alpha))\"/>"
            }.joined()
        }
        switch paint {
        case .color(let pair):
            return color(pair).css
        case .linearGradient(let s, let sx, let sy, let ex, let ey):
            let id = newID("lg")
            defs +=
                "<linearGradient id=\"\(id)\" x1=\"\(n(Double(sx)))\" y1=\"\(n(Double(sy)))\" x2=\"\(n(Double(ex)))\" y2=\"\(n(Double(ey)))\">\(stops(s))</linearGradient>"
            return "url(#\(id))"
        case .radialGradient(let s, let cx, let cy, let r0, let r1):
            let id = newID("rg")
            let x = frame.x + frame.w * Double(cx), y = frame.y + frame.h * Double(cy)
            let start = Double(r1) > 0 ? Double(r0) / Double(r1) : 0
            defs +=
                "<radialGradient id=\"\(id)\" gradientUnits=\"userSpaceOnUse\" cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"\(n(max(Double(r1), 0.01)))\" fr=\"\(n(max(0, Double(r0))))\">\(stops(s.map { GradientStopPayload(color: $0.color, location: Float(start + (1 - start) * Double($0.location))) }))</radialGradient>"
            return "url(#\(id))"
        case .named:
            return "rgb(142,142,147)"
        }
    }
}

/// A name, label, URL or intent as drawn: at most 512 bytes of it (a view's strings have no
/// bound of their own, and are written outside the parts ``Canvas/fits(_:)`` weighs).
private func named(_ text: String) -> String {
    MessageBudget.cut(text, to: 512)
}

/// A font size or a shadow's radius as drawn: 0 to 1,000 points (a widget is a few hundred).
private func bounded(_ value: Double) -> Double {
    value.isNaN ? 0 : min(max(value, 0), 1000)
}

/// A number for SVG: at most two decimals; 0 for what is not finite.
private func n(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let rounded = (min(max(value, -1e7), 1e7) * 100).rounded() / 100
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
}

/// Escaped for SVG text and attributes, without the control characters XML forbids.
private func esc(_ text: String) -> String {
    HTMLText.escape(String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 || $0 == "\t" })))
}

/// The binary encoding of ``ViewRendering`` inside an entry's payload.
///
/// A tree: its format byte, size, corner radius, family, notes, then its nodes in pre-order.
/// A node: kind, frame, child count, flags, and a presence mask for its optional parts, so that
/// a plain node takes about 20 bytes. The reader refuses a tree of another format, more than
/// ``ViewTreeCodec/maximumNodes`` nodes, deeper than ``ViewTreeCodec/maximumDepth``, or whose
/// child counts do not add up.
public enum ViewTreeCodec {
    /// Nodes a tree may have.
    public static let maximumNodes = 20_000
    /// How deep groups may nest.
    public static let maximumDepth = 200

    private struct Parts: OptionSet {
        let rawValue: UInt16
        static let opacity = Parts(rawValue: 1 << 0)
        static let rotation = Parts(rawValue: 1 << 1)
        static let shape = Parts(rawValue: 1 << 2)
        static let fill = Parts(rawValue: 1 << 3)
        static let stroke = Parts(rawValue: 1 << 4)
        static let shadow = Parts(rawValue: 1 << 5)
        static let text = Parts(rawValue: 1 << 6)
        static let image = Parts(rawValue: 1 << 7)
        static let meter = Parts(rawValue: 1 << 8)
        static let url = Parts(rawValue: 1 << 9)
        static let intent = Parts(rawValue: 1 << 10)
        static let label = Parts(rawValue: 1 << 11)
    }

    // MARK: writing

    static func encode(_ rendering: ViewRendering, into w: inout BinaryWriter) {
        encode(rendering.light, into: &w)
        w.write(rendering.dark) { w, tree in encode(tree, into: &w) }
        w.writeVarint(rendering.nanoseconds)
    }

    static func encode(_ tree: ViewTree, into w: inout BinaryWriter) {
        w.write(tree.format)
        w.write(tree.width)
        w.write(tree.height)
        w.write(tree.cornerRadius)
        w.write(tree.family)
        w.write(array: tree.notes) { $0.write($1) }
        w.write(array: tree.nodes) { w, node in encode(node, into: &w) }
    }

    /// The bytes of `tree` alone (what the benchmark measures).
    public static func bytes(of tree: ViewTree) -> [UInt8] {
        var w = BinaryWriter(reservingCapacity: 32 * tree.nodes.count + 64)
        encode(tree, into: &w)
        return w.bytes
    }

    /// Decodes what ``bytes(of:)`` made.
    public static func tree(from bytes: [UInt8]) throws(ProtocolError) -> ViewTree {
        var r = BinaryReader(bytes[...])
        do {
            let tree = try readTree(&r)
            try r.expectEnd()
            return tree
        } catch {
            throw .malformedPayload(.entryReply, reason: error.reason, offset: error.offset, payloadSize: bytes.count)
        }
    }

    private static func encode(_ node: ViewNode, into w: inout BinaryWriter) {
        w.write(node.kind.rawValue)
        w.write(node.x)
        w.write(node.y)
        w.write(node.width)
        w.write(node.height)
        w.writeVarint(node.childCount)
        w.write(node.flags.rawValue)
        var parts: Parts = []
        if node.opacity != 1 { parts.insert(.opacity) }
        if node.rotation != 0 { parts.insert(.rotation) }
        if node.shape != nil { parts.insert(.shape) }
        if node.fill != nil { parts.insert(.fill) }
        if node.stroke != nil { parts.insert(.stroke) }
        if node.shadow != nil { parts.insert(.shadow) }
        if node.text != nil { parts.insert(.text) }
        if node.image != nil { parts.insert(.image) }
        if node.meter != nil { parts.insert(.meter) }
        if node.url != nil { parts.insert(.url) }
        if node.intent != nil { parts.insert(.intent) }
        if node.label != nil { parts.insert(.label) }
        w.write(parts.rawValue)
        if parts.contains(.opacity) { w.write(node.opacity) }
        if parts.contains(.rotation) { w.write(node.rotation) }
        if let shape = node.shape { encode(shape, into: &w) }
        if let fill = node.fill { encode(fill, into: &w) }
        if let stroke = node.stroke {
            encode(stroke.paint, into: &w)
            w.write(stroke.lineWidth)
            w.write(stroke.roundCap)
            w.write(array: stroke.dash) { $0.write($1) }
        }
        if let shadow = node.shadow {
            encode(shadow.color, into: &w)
            w.write(shadow.radius)
            w.write(shadow.x)
            w.write(shadow.y)
        }
        if let text = node.text {
            w.write(text.alignment.rawValue)
            w.write(array: text.lines) { w, line in
                w.write(line.x)
                w.write(line.baseline)
                w.write(line.width)
                w.write(array: line.runs) { w, run in encode(run, into: &w) }
            }
        }
        if let image = node.image {
            w.write(image.source.rawValue)
            w.write(image.name)
            w.writeVarint(image.pixelWidth)
            w.writeVarint(image.pixelHeight)
        }
        if let meter = node.meter {
            w.write(meter.style.rawValue)
            w.write(meter.fraction) { $0.write($1) }
            w.write(meter.timer) { w, timer in encode(timer, into: &w) }
        }
        if let url = node.url { w.write(url) }
        if let intent = node.intent { w.write(intent) }
        if let label = node.label { w.write(label) }
    }

    private static func encode(_ shape: ViewShape, into w: inout BinaryWriter) {
        switch shape {
        case .rectangle: w.write(UInt8(0))
        case .roundedRectangle(let radius):
            w.write(UInt8(1))
            w.write(radius)
        case .capsule: w.write(UInt8(2))
        case .ellipse: w.write(UInt8(3))
        case .path(let data):
            w.write(UInt8(4))
            w.write(data)
        case .trimmed(let base, let from, let to):
            w.write(UInt8(5))
            encode(base, into: &w)
            w.write(from)
            w.write(to)
        }
    }

    private static func encode(_ color: ColorPair, into w: inout BinaryWriter) {
        w.writeVarint(UInt64(color.light.value))
        w.writeVarint(UInt64(color.dark.value))
    }

    private static func encode(_ paint: ViewPaint, into w: inout BinaryWriter) {
        func stops(_ stops: [GradientStopPayload], _ w: inout BinaryWriter) {
            w.write(array: stops) { w, stop in
                encode(stop.color, into: &w)
                w.write(stop.location)
            }
        }
        switch paint {
        case .color(let color):
            w.write(UInt8(0))
            encode(color, into: &w)
        case .linearGradient(let s, let sx, let sy, let ex, let ey):
            w.write(UInt8(1))
            stops(s, &w)
            for v in [sx, sy, ex, ey] { w.write(v) }
        case .radialGradient(let s, let cx, let cy, let r0, let r1):
            w.write(UInt8(2))
            stops(s, &w)
            for v in [cx, cy, r0, r1] { w.write(v) }
        case .named(let name):
            w.write(UInt8(3))
            w.write(name)
        }
    }

    private static func encode(_ run: TextRun, into w: inout BinaryWriter) {
        w.write(run.text)
        w.write(run.size)
        w.write(run.weight)
        w.write(run.design.rawValue)
        w.write(run.decoration.rawValue)
        encode(run.paint, into: &w)
        w.write(run.width)
        w.write(run.dynamic) { w, dynamic in encode(dynamic, into: &w) }
    }

    private static func encode(_ text: DynamicText, into w: inout BinaryWriter) {
        w.write(text.style.rawValue)
        w.write(text.date)
        w.write(text.end)
        w.write(text.countsDown)
        w.write(text.showsHours)
        w.write(text.pauseTime) { $0.write($1) }
    }

    // MARK: reading

    static func readRendering(_ r: inout BinaryReader) throws(PayloadError) -> ViewRendering {
        let light = try readTree(&r)
        let dark = try r.readOptional("dark view") { (r) throws(PayloadError) in try readTree(&r) }
        return ViewRendering(light: light, dark: dark, nanoseconds: try r.readVarint("render time"))
    }

    static func readTree(_ r: inout BinaryReader) throws(PayloadError) -> ViewTree {
        let start = r.offset
        let format = try r.readByte("view format")
        guard format == ViewTree.currentFormat else {
            throw PayloadError(reason: "view format: \(format), this host reads \(ViewTree.currentFormat)", offset: start)
        }
        let width = try r.readFloat("view width"), height = try r.readFloat("view height")
        let radius = try r.readFloat("view corner radius")
        let family = try r.readString("view family")
        let notes = try r.readArray("view notes") { (r) throws(PayloadError) in try r.readString("view note") }
        let countAt = r.offset
        let count = try r.readCount("view nodes", minimumSize: 20)
        guard count <= maximumNodes else {
            throw PayloadError(reason: "view nodes: \(count), over the limit of \(maximumNodes)", offset: countAt)
        }
        var nodes: [ViewNode] = []
        nodes.reserveCapacity(count)
        // Children still expected by each open node, innermost last.
        var open: [Int] = []
        for _ in 0..<count {
            let nodeAt = r.offset
            let node = try readNode(&r)
            if !open.isEmpty { open[open.count - 1] -= 1 }
            if node.childCount > 0 {
                open.append(node.childCount)
                guard open.count <= maximumDepth else {
                    throw PayloadError(reason: "view nodes: nested deeper than \(maximumDepth)", offset: nodeAt)
                }
            }
            while let last = open.last, last == 0 { open.removeLast() }
            nodes.append(node)
        }
        guard open.isEmpty else {
            throw PayloadError(
                reason: "view nodes: child counts promise \(open.reduce(0, +)) more nodes than the \(count) sent", offset: countAt)
        }
        return ViewTree(format: format, width: width, height: height, cornerRadius: radius, family: family, nodes: nodes, notes: notes)
    }

    private static func readNode(_ r: inout BinaryReader) throws(PayloadError) -> ViewNode {
        let kind = try r.readEnum("node kind", ViewNode.Kind.self)
        var node = ViewNode(
            kind: kind, x: try r.readFloat("node x"), y: try r.readFloat("node y"),
            width: try r.readFloat("node width"), height: try r.readFloat("node height"))
        let countAt = r.offset
        node.childCount = try r.readInt("node child count")
        guard node.childCount <= maximumNodes else {
            throw PayloadError(reason: "node child count: \(node.childCount), over the limit of \(maximumNodes)", offset: countAt)
        }
        node.flags = ViewNode.Flags(rawValue: try r.readUInt16("node flags"))
        let parts = Parts(rawValue: try r.readUInt16("node parts"))
        if parts.contains(.opacity) { node.opacity = try r.readFloat("opacity") }
        if parts.contains(.rotation) { node.rotation = try r.readFloat("rotation") }
        if parts.contains(.shape) { node.shape = try readShape(&r, depth: 0) }
        if parts.contains(.fill) { node.fill = try readPaint(&r) }
        if parts.contains(.stroke) {
            node.stroke = ViewStroke(
                paint: try readPaint(&r), lineWidth: try r.readFloat("line width"),
                roundCap: try r.readBool("round cap"),
                dash: try r.readArray("dash") { (r) throws(PayloadError) in try r.readFloat("dash") })
        }
        if parts.contains(.shadow) {
            node.shadow = ViewShadow(
                color: try readColor(&r), radius: try r.readFloat("shadow radius"),
                x: try r.readFloat("shadow x"), y: try r.readFloat("shadow y"))
        }
        if parts.contains(.text) {
            let alignment = try r.readEnum("text alignment", TextLayout.Alignment.self)
            let lines = try r.readArray("text lines") { (r) throws(PayloadError) in
                TextLine(
                    x: try r.readFloat("line x"), baseline: try r.readFloat("line baseline"), width: try r.readFloat("line width"),
                    runs: try r.readArray("text runs") { (r) throws(PayloadError) in try readRun(&r) })
            }
            node.text = TextLayout(alignment: alignment, lines: lines)
        }
        if parts.contains(.image) {
            node.image = ImageReference(
                source: try r.readEnum("image source", ImageReference.Source.self),
                name: try r.readString("image name"),
                pixelWidth: try r.readInt("image width"), pixelHeight: try r.readInt("image height"))
        }
        if parts.contains(.meter) {
            node.meter = MeterValue(
                style: try r.readEnum("meter style", MeterValue.Style.self),
                fraction: try r.readOptional("meter value") { (r) throws(PayloadError) in try r.readFloat("meter value") },
                timer: try r.readOptional("meter timer") { (r) throws(PayloadError) in try readDynamic(&r) })
        }
        if parts.contains(.url) { node.url = try r.readString("url") }
        if parts.contains(.intent) { node.intent = try r.readString("intent") }
        if parts.contains(.label) { node.label = try r.readString("accessibility label") }
        return node
    }

    private static func readShape(_ r: inout BinaryReader, depth: Int) throws(PayloadError) -> ViewShape {
        let start = r.offset
        switch try r.readByte("shape") {
        case 0: return .rectangle
        case 1: return .roundedRectangle(radius: try r.readFloat("corner radius"))
        case 2: return .capsule
        case 3: return .ellipse
        case 4: return .path(try r.readString("path"))
        case 5 where depth < 4:
            return .trimmed(try readShape(&r, depth: depth + 1), from: try r.readFloat("trim from"), to: try r.readFloat("trim to"))
        case let other: throw PayloadError(reason: "shape: unknown value \(other)", offset: start)
        }
    }

    private static func readColor(_ r: inout BinaryReader) throws(PayloadError) -> ColorPair {
        func rgba(_ what: String) throws(PayloadError) -> RGBA {
            let start = r.offset
            let v = try r.readVarint(what)
            guard let value = UInt32(exactly: v) else { throw PayloadError(reason: "\(what): \(v) does not fit 32 bits", offset: start) }
            return RGBA(value)
        }
        return ColorPair(light: try rgba("light colour"), dark: try rgba("dark colour"))
    }

    private static func readPaint(_ r: inout BinaryReader) throws(PayloadError) -> ViewPaint {
        let start = r.offset
        func stops(_ r: inout BinaryReader) throws(PayloadError) -> [GradientStopPayload] {
            try r.readArray("gradient stops") { (r) throws(PayloadError) in
                GradientStopPayload(color: try readColor(&r), location: try r.readFloat("stop location"))
            }
        }
        switch try r.readByte("paint") {
        case 0: return .color(try readColor(&r))
        case 1:
            return .linearGradient(
                try stops(&r), startX: try r.readFloat("start x"), startY: try r.readFloat("start y"),
                endX: try r.readFloat("end x"), endY: try r.readFloat("end y"))
        case 2:
            return .radialGradient(
                try stops(&r), centerX: try r.readFloat("centre x"), centerY: try r.readFloat("centre y"),
                startRadius: try r.readFloat("start radius"), endRadius: try r.readFloat("end radius"))
        case 3: return .named(try r.readString("colour name"))
        case let other: throw PayloadError(reason: "paint: unknown value \(other)", offset: start)
        }
    }

    private static func readRun(_ r: inout BinaryReader) throws(PayloadError) -> TextRun {
        TextRun(
            text: try r.readString("run text"), size: try r.readFloat("font size"), weight: try r.readUInt16("font weight"),
            design: try r.readEnum("font design", TextRun.Design.self),
            decoration: TextRun.Decoration(rawValue: try r.readByte("decoration")),
            paint: try readPaint(&r), width: try r.readFloat("run width"),
            dynamic: try r.readOptional("dynamic text") { (r) throws(PayloadError) in try readDynamic(&r) })
    }

    private static func readDynamic(_ r: inout BinaryReader) throws(PayloadError) -> DynamicText {
        DynamicText(
            style: try r.readEnum("date style", DynamicText.Style.self), date: try r.readDouble("date"),
            end: try r.readDouble("end date"), countsDown: try r.readBool("counts down"),
            showsHours: try r.readBool("shows hours"),
            pauseTime: try r.readOptional("pause time") { (r) throws(PayloadError) in try r.readDouble("pause time") })
    }
}

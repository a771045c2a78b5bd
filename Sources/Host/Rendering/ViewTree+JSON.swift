import Foundation
import SandglassIPC

/// A widget's view in the event log: each entry of a `timeline` event (field `views`) and the
/// entry of an `activation.end` (field `view`) carry the tree the extension rendered, as JSON
/// that ``ViewRendering/init(json:)`` reads back for the report and `sandglass render`.
///
/// A node: `k` (group, shape, text, image, gauge, progress, toggle), `f` ([x, y, width,
/// height] in points), `n` (children that follow), and what it draws — `fill`, `stroke`,
/// `shape`, `text` (lines of runs), `image` (source, name, pixel size), `meter`, `url`,
/// `intent`, `label`, `flags`. Colours are `#RRGGBBAA` pairs, light then dark.
extension ViewRendering {
    /// The rendering as the event log records it.
    public var json: JSONValue {
        var fields: [(String, JSONValue)] = [("light", light.json)]
        if let dark { fields.append(("dark", dark.json)) }
        fields.append(("renderMs", .double((Double(nanoseconds) / 1e3).rounded() / 1e3)))
        return .object(fields)
    }

    /// The most view nodes the views of one event carry, light and dark together: the entries'
    /// views past them are left out of the event (`null`), so that a timeline of many heavy views
    /// does not make a line of megabytes.
    public static let nodesPerEvent = 20_000

    /// The most bytes the views of one event take in its line, as written — escapes counted: a
    /// view's texts (its notes, runs, labels) are the extension's, and a control character is
    /// written as six bytes. A real widget's view takes 1–2 KB.
    public static let bytesPerEvent = 1 << 20

    /// The views of a timeline's entries as its event carries them, in order, each whole or
    /// left out (`null`) once the event has ``nodesPerEvent`` or ``bytesPerEvent``; and how
    /// many were left out.
    static func eventViews(_ renderings: [ViewRendering?]) -> (views: [JSONValue], leftOut: Int) {
        var nodes = 0
        var bytes = 0
        var leftOut = 0
        let views = renderings.map { rendering -> JSONValue in
            guard let rendering else { return .null }
            let count = rendering.light.nodes.count + (rendering.dark?.nodes.count ?? 0)
            let written = nodes + count <= nodesPerEvent ? rendering.json.serialized : nil
            guard let written, bytes + written.utf8.count <= bytesPerEvent else {
                leftOut += 1
                return .null
            }
            nodes += count
            bytes += written.utf8.count
            return .raw(written)
        }
        return (views, leftOut)
    }

    /// The rendering as an `activation.end` carries its entry's view: whole within
    /// ``bytesPerEvent`` as written, else a string saying how much was left out.
    var entryJSON: JSONValue {
        let written = json.serialized
        guard written.utf8.count <= Self.bytesPerEvent else {
            return .string(
                "a view of \(written.utf8.count) bytes as written left out: a view takes at most \(Self.bytesPerEvent >> 10) KiB of the log"
            )
        }
        return .raw(written)
    }

    /// A rendering read back from the log; `nil` when `json` is not one.
    public init?(json: JSONValue) {
        guard let light = json["light"].flatMap(ViewTree.init(json:)) else { return nil }
        let dark = json["dark"].flatMap(ViewTree.init(json:))
        let ms = json["renderMs"]?.doubleValue ?? 0
        self.init(light: light, dark: dark, nanoseconds: ms.isFinite && ms > 0 && ms < 1e9 ? UInt64(ms * 1e6) : 0)
    }
}

extension ViewTree {
    var json: JSONValue {
        var fields: [(String, JSONValue)] = [
            ("format", .int(Int64(format))), ("width", .double(Double(width))), ("height", .double(Double(height))),
            ("radius", .double(Double(cornerRadius))), ("family", .string(family))
        ]
        if !notes.isEmpty { fields.append(("notes", .array(notes.map(JSONValue.string)))) }
        fields.append(("nodes", .array(nodes.map(\.json))))
        return .object(fields)
    }

    init?(json: JSONValue) {
        guard case .array(let nodeValues)? = json["nodes"], nodeValues.count <= ViewTreeCodec.maximumNodes else { return nil }
        var nodes = nodeValues.compactMap(ViewNode.init(json:))
        guard nodes.count == nodeValues.count else { return nil }
        // Child counts that do not add up are cut, so that drawing never reads past the end.
        ViewTree.repairChildCounts(&nodes)
        let notes: [String] = if case .array(let values)? = json["notes"] { values.compactMap(\.stringValue) } else { [] }
        self.init(
            format: UInt8(clamping: json["format"]?.intValue ?? 1), width: json.float("width"), height: json.float("height"),
            cornerRadius: json.float("radius"), family: json["family"]?.stringValue ?? "?", nodes: nodes, notes: notes)
    }

    /// Makes every node's child count fit in the nodes that follow it.
    static func repairChildCounts(_ nodes: inout [ViewNode]) {
        func subtree(_ i: Int, depth: Int) -> Int {
            var next = i + 1
            var kept = 0
            while kept < nodes[i].childCount, next < nodes.count, depth < ViewTreeCodec.maximumDepth {
                next = subtree(next, depth: depth + 1)
                kept += 1
            }
            nodes[i].childCount = kept
            return next
        }
        var i = 0
        while i < nodes.count { i = subtree(i, depth: 0) }
    }
}

private let kindNames: [ViewNode.Kind: String] = [
    .group: "group", .shape: "shape", .text: "text", .image: "image",
    .gauge: "gauge", .progress: "progress", .toggle: "toggle"
]
private let flagNames: [(ViewNode.Flags, String)] = [
    (.redacted, "redacted"), (.privacySensitive, "privacySensitive"), (.accentable, "accentable"),
    (.containerBackground, "containerBackground"), (.invalidatable, "invalidatable"), (.missing, "missing"),
    (.strokeInside, "strokeInside"), (.isOn, "isOn")
]

extension ViewNode {
    var json: JSONValue {
        var fields: [(String, JSONValue)] = [
            ("k", .string(kindNames[kind] ?? "group")),
            ("f", .array([x, y, width, height].map { .double(Double($0)) }))
        ]
        if childCount > 0 { fields.append(("n", .int(Int64(childCount)))) }
        let names = flagNames.filter { flags.contains($0.0) }.map { JSONValue.string($0.1) }
        if !names.isEmpty { fields.append(("flags", .array(names))) }
        if opacity != 1 { fields.append(("opacity", .double(Double(opacity)))) }
        if rotation != 0 { fields.append(("rotation", .double(Double(rotation)))) }
        if let shape { fields.append(("shape", shape.json)) }
        if let fill { fields.append(("fill", fill.json)) }
        if let stroke {
            var s: [(String, JSONValue)] = [("paint", stroke.paint.json), ("width", .double(Double(stroke.lineWidth)))]
            if stroke.roundCap { s.append(("round", true)) }
            if !stroke.dash.isEmpty { s.append(("dash", .array(stroke.dash.map { .double(Double($0)) }))) }
            fields.append(("stroke", .object(s)))
        }
        if let shadow {
            fields.append(
                (
                    "shadow",
                    .object([
                        ("color", shadow.color.json), ("radius", .double(Double(shadow.radius))),
                        ("x", .double(Double(shadow.x))), ("y", .double(Double(shadow.y)))
                    ])
                ))
        }
        if let text {
            let lines: [JSONValue] = text.lines.map { line in
                .object([
                    ("x", .double(Double(line.x))), ("b", .double(Double(line.baseline))), ("w", .double(Double(line.width))),
                    ("runs", .array(line.runs.map(\.json)))
                ])
            }
            fields.append(
                (
                    "text",
                    .object([
                        ("align", .string(["leading", "center", "trailing"][Int(text.alignment.rawValue)])),
                        ("lines", .array(lines))
                    ])
                ))
        }
        if let image {
            fields.append(
                (
                    "image",
                    .object([
                        ("source", .string(["asset", "symbol", "bitmap"][Int(image.source.rawValue)])),
                        ("name", .string(image.name)),
                        ("px", .array([.int(Int64(image.pixelWidth)), .int(Int64(image.pixelHeight))]))
                    ])
                ))
        }
        if let meter {
            var m: [(String, JSONValue)] = [
                ("style", .string(["linear", "linearDot", "circularDot", "circular"][Int(meter.style.rawValue)]))
            ]
            if let fraction = meter.fraction { m.append(("value", .double(Double(fraction)))) }
            if let timer = meter.timer { m.append(("timer", timer.json)) }
            fields.append(("meter", .object(m)))
        }
        if let url { fields.append(("url", .string(url))) }
        if let intent { fields.append(("intent", .string(intent))) }
        if let label { fields.append(("label", .string(label))) }
        return .object(fields)
    }

    init?(json: JSONValue) {
        guard let kindName = json["k"]?.stringValue, let kind = kindNames.first(where: { $0.value == kindName })?.key,
            case .array(let frame)? = json["f"], frame.count == 4
        else { return nil }
        let f = frame.map { Float($0.doubleValue ?? 0) }
        self.init(kind: kind, x: f[0], y: f[1], width: f[2], height: f[3])
        childCount = Int(clamping: max(0, min(json["n"]?.intValue ?? 0, Int64(ViewTreeCodec.maximumNodes))))
        if case .array(let names)? = json["flags"] {
            for name in names.compactMap(\.stringValue) { if let flag = flagNames.first(where: { $0.1 == name }) { flags.insert(flag.0) } }
        }
        opacity = json["opacity"].map { $0.floatValue } ?? 1
        rotation = json["rotation"].map { $0.floatValue } ?? 0
        shape = json["shape"].flatMap { ViewShape(json: $0, depth: 0) }
        fill = json["fill"].flatMap(ViewPaint.init(json:))
        if let s = json["stroke"], let paint = s["paint"].flatMap(ViewPaint.init(json:)) {
            let dash: [Float] = if case .array(let d)? = s["dash"] { d.map(\.floatValue) } else { [] }
            stroke = ViewStroke(paint: paint, lineWidth: s.float("width"), roundCap: s["round"] == .bool(true), dash: dash)
        }
        if let s = json["shadow"], let color = s["color"].flatMap(ColorPair.init(json:)) {
            shadow = ViewShadow(color: color, radius: s.float("radius"), x: s.float("x"), y: s.float("y"))
        }
        if let t = json["text"], case .array(let lineValues)? = t["lines"] {
            let alignment: TextLayout.Alignment =
                switch t["align"]?.stringValue {
                case "center": .center;
                case "trailing": .trailing;
                default: .leading
                }
            let lines = lineValues.map { line -> TextLine in
                let runs: [TextRun] = if case .array(let r)? = line["runs"] { r.compactMap(TextRun.init(json:)) } else { [] }
                return TextLine(x: line.float("x"), baseline: line.float("b"), width: line.float("w"), runs: runs)
            }
            text = TextLayout(alignment: alignment, lines: lines)
        }
        if let i = json["image"] {
            let source: ImageReference.Source =
                switch i["source"]?.stringValue {
                case "symbol": .symbol;
                case "bitmap": .bitmap;
                default: .asset
                }
            let px: [Int] = if case .array(let p)? = i["px"] { p.map { Int(clamping: max(0, min($0.intValue ?? 0, 1 << 40))) } } else { [] }
            image = ImageReference(
                source: source, name: i["name"]?.stringValue ?? "", pixelWidth: px.first ?? 0, pixelHeight: px.dropFirst().first ?? 0)
        }
        if let m = json["meter"] {
            let style: MeterValue.Style =
                switch m["style"]?.stringValue {
                case "linearDot": .linearDot
                case "circularDot": .circularDot
                case "circular": .circular
                default: .linear
                }
            meter = MeterValue(style: style, fraction: m["value"].map(\.floatValue), timer: m["timer"].flatMap(DynamicText.init(json:)))
        }
        url = json["url"]?.stringValue
        intent = json["intent"]?.stringValue
        label = json["label"]?.stringValue
    }
}

extension ViewShape {
    var json: JSONValue {
        switch self {
        case .rectangle: .string("rect")
        case .roundedRectangle(let r): .object([("rounded", .double(Double(r)))])
        case .capsule: .string("capsule")
        case .ellipse: .string("ellipse")
        case .path(let data): .object([("path", .string(data))])
        case .trimmed(let base, let from, let to):
            .object([("trim", .array([.double(Double(from)), .double(Double(to))])), ("of", base.json)])
        }
    }

    init?(json: JSONValue, depth: Int) {
        switch json.stringValue {
        case "rect": self = .rectangle
        case "capsule": self = .capsule
        case "ellipse": self = .ellipse
        default:
            if let r = json["rounded"] {
                self = .roundedRectangle(radius: r.floatValue)
            } else if let p = json["path"]?.stringValue {
                self = .path(p)
            } else if depth < 4, case .array(let t)? = json["trim"], t.count == 2,
                let base = json["of"].flatMap({ ViewShape(json: $0, depth: depth + 1) })
            {
                self = .trimmed(base, from: t[0].floatValue, to: t[1].floatValue)
            } else {
                return nil
            }
        }
    }
}

extension RGBA {
    /// `#RRGGBBAA`.
    var hex: String {
        let digits = String(value, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    init?(hex: String) {
        guard hex.hasPrefix("#"), hex.count == 9, let value = UInt32(hex.dropFirst(), radix: 16) else { return nil }
        self.init(value)
    }
}

extension ColorPair {
    var json: JSONValue { .array([.string(light.hex), .string(dark.hex)]) }

    init?(json: JSONValue) {
        guard case .array(let pair) = json, pair.count == 2, let light = pair[0].stringValue.flatMap(RGBA.init(hex:)),
            let dark = pair[1].stringValue.flatMap(RGBA.init(hex:))
        else { return nil }
        self.init(light: light, dark: dark)
    }
}

extension ViewPaint {
    var json: JSONValue {
        func stops(_ stops: [GradientStopPayload]) -> JSONValue {
            .array(stops.map { .array([.string($0.color.light.hex), .string($0.color.dark.hex), .double(Double($0.location))]) })
        }
        switch self {
        case .color(let c): return .object([("color", c.json)])
        case .linearGradient(let s, let sx, let sy, let ex, let ey):
            return .object([
                (
                    "linear",
                    .object([
                        ("stops", stops(s)), ("from", .array([.double(Double(sx)), .double(Double(sy))])),
                        ("to", .array([.double(Double(ex)), .double(Double(ey))]))
                    ])
                )
            ])
        case .radialGradient(let s, let cx, let cy, let r0, let r1):
            return .object([
                (
                    "radial",
                    .object([
                        ("stops", stops(s)), ("center", .array([.double(Double(cx)), .double(Double(cy))])),
                        ("radii", .array([.double(Double(r0)), .double(Double(r1))]))
                    ])
                )
            ])
        case .named(let name): return .object([("named", .string(name))])
        }
    }

    init?(json: JSONValue) {
        func stops(_ v: JSONValue?) -> [GradientStopPayload] {
            guard case .array(let values)? = v else { return [] }
            return values.compactMap { stop in
                guard case .array(let s) = stop, s.count == 3, let l = s[0].stringValue.flatMap(RGBA.init(hex:)),
                    let d = s[1].stringValue.flatMap(RGBA.init(hex:))
                else { return nil }
                return GradientStopPayload(color: ColorPair(light: l, dark: d), location: s[2].floatValue)
            }
        }
        func pair(_ v: JSONValue?) -> (Float, Float) {
            guard case .array(let p)? = v, p.count == 2 else { return (0, 0) }
            return (p[0].floatValue, p[1].floatValue)
        }
        if let c = json["color"].flatMap(ColorPair.init(json:)) {
            self = .color(c)
        } else if let l = json["linear"] {
            let (sx, sy) = pair(l["from"]), (ex, ey) = pair(l["to"])
            self = .linearGradient(stops(l["stops"]), startX: sx, startY: sy, endX: ex, endY: ey)
        } else if let r = json["radial"] {
            let (cx, cy) = pair(r["center"]), (r0, r1) = pair(r["radii"])
            self = .radialGradient(stops(r["stops"]), centerX: cx, centerY: cy, startRadius: r0, endRadius: r1)
        } else if let name = json["named"]?.stringValue {
            self = .named(name)
        } else {
            return nil
        }
    }
}

extension TextRun {
    var json: JSONValue {
        var fields: [(String, JSONValue)] = [("t", .string(text)), ("size", .double(Double(size)))]
        if weight != 400 { fields.append(("weight", .int(Int64(weight)))) }
        if design != .default { fields.append(("design", .string(["default", "rounded", "serif", "monospaced"][Int(design.rawValue)]))) }
        let decorations: [(TextRun.Decoration, String)] = [
            (.italic, "italic"), (.underline, "underline"), (.strikethrough, "strikethrough"),
            (.monospacedDigits, "monospacedDigits"), (.symbol, "symbol")
        ]
        let names = decorations.filter { decoration.contains($0.0) }.map { JSONValue.string($0.1) }
        if !names.isEmpty { fields.append(("deco", .array(names))) }
        fields += [("paint", paint.json), ("w", .double(Double(width)))]
        if let dynamic { fields.append(("dyn", dynamic.json)) }
        return .object(fields)
    }

    init?(json: JSONValue) {
        guard let text = json["t"]?.stringValue, let paint = json["paint"].flatMap(ViewPaint.init(json:)) else { return nil }
        let design: Design =
            switch json["design"]?.stringValue {
            case "rounded": .rounded;
            case "serif": .serif;
            case "monospaced": .monospaced;
            default: .default
            }
        var decoration: Decoration = []
        if case .array(let names)? = json["deco"] {
            for name in names.compactMap(\.stringValue) {
                switch name {
                case "italic": decoration.insert(.italic)
                case "underline": decoration.insert(.underline)
                case "strikethrough": decoration.insert(.strikethrough)
                case "monospacedDigits": decoration.insert(.monospacedDigits)
                case "symbol": decoration.insert(.symbol)
                default: break
                }
            }
        }
        self.init(
            text: text, size: json.float("size"), weight: UInt16(clamping: json["weight"]?.intValue ?? 400), design: design,
            decoration: decoration, paint: paint, width: json.float("w"), dynamic: json["dyn"].flatMap(DynamicText.init(json:)))
    }
}

extension DynamicText {
    var json: JSONValue {
        var fields: [(String, JSONValue)] = [
            ("style", .string(["relative", "offset", "timer", "timerInterval"][Int(style.rawValue)])),
            ("date", .double(date))
        ]
        if style == .timerInterval {
            fields += [("end", .double(end)), ("countsDown", .bool(countsDown)), ("showsHours", .bool(showsHours))]
            if let pauseTime { fields.append(("pause", .double(pauseTime))) }
        }
        return .object(fields)
    }

    init?(json: JSONValue) {
        guard let date = json["date"]?.doubleValue, date.isFinite else { return nil }
        let style: Style =
            switch json["style"]?.stringValue {
            case "offset": .offset;
            case "timer": .timer;
            case "timerInterval": .timerInterval;
            default: .relative
            }
        self.init(
            style: style, date: date, end: json["end"]?.doubleValue, countsDown: json["countsDown"] != .bool(false),
            showsHours: json["showsHours"] != .bool(false), pauseTime: json["pause"]?.doubleValue)
    }
}

extension JSONValue {
    /// The number as a `Float`; 0 when it is none or not finite.
    var floatValue: Float {
        let d = doubleValue ?? 0
        return d.isFinite ? Float(max(-1e9, min(d, 1e9))) : 0
    }

    func float(_ key: String) -> Float {
        self[key]?.floatValue ?? 0
    }
}

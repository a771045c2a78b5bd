/// A widget's view for one entry, as the extension evaluated and laid it out: the tree of what
/// is drawn, in points, in the widget's own coordinates (origin top left).
///
/// The nodes are in pre-order: each node is followed by its `childCount` children, each with
/// its own descendants. Containers that draw nothing (stacks, frames, padding) leave no node:
/// their children carry absolute frames. A node is a group (clip, opacity, rotation, shadow,
/// link…) around its children, or something drawn: a shape, text, an image, a gauge, a progress
/// bar, a toggle. The format has its own version (``ViewTree/currentFormat``), so that the host
/// can refuse a tree it does not understand without refusing the timeline.
public struct ViewTree: Sendable, Hashable {
    /// The version of the tree format this build writes and reads.
    public static let currentFormat: UInt8 = 1

    public var format: UInt8
    /// The widget's size in points (the family's, or the one the host gave the activation).
    public var width: Float
    public var height: Float
    /// The radius of the widget's corners (0 for the accessory families without a shape).
    public var cornerRadius: Float
    /// `systemSmall`, `accessoryCircular`, …
    public var family: String
    /// Pre-order.
    public var nodes: [ViewNode]
    /// What the SDK noticed while rendering (no `containerBackground`, an image not in the
    /// bundle, a style it draws approximately), one line each.
    public var notes: [String]

    public init(
        format: UInt8 = ViewTree.currentFormat, width: Float, height: Float, cornerRadius: Float,
        family: String, nodes: [ViewNode], notes: [String] = []
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.cornerRadius = cornerRadius
        self.family = family
        self.nodes = nodes
        self.notes = notes
    }

    /// Every text of the tree in drawing order, one line each — the entry's text rendering.
    public var plainText: String {
        nodes.compactMap { node in
            node.text.map { $0.lines.map { $0.runs.map(\.text).joined() }.joined(separator: " ") }
        }.joined(separator: "\n")
    }
}

/// An entry's view in both appearances, and what rendering it cost.
public struct ViewRendering: Sendable, Hashable {
    /// The view with the light appearance. Colours are pairs, so the same tree drawn with the
    /// dark values is the dark appearance, unless ``dark`` is given.
    public var light: ViewTree
    /// The view evaluated again with `colorScheme` dark, when its body read `colorScheme`.
    public var dark: ViewTree?
    /// Evaluating the body and laying it out (both appearances), in nanoseconds.
    public var nanoseconds: UInt64

    public init(light: ViewTree, dark: ViewTree? = nil, nanoseconds: UInt64) {
        self.light = light
        self.dark = dark
        self.nanoseconds = nanoseconds
    }
}

/// One node of a ``ViewTree``.
public struct ViewNode: Sendable, Hashable {
    /// What the node draws.
    public enum Kind: UInt8, Sendable, Hashable, CaseIterable {
        /// Draws its children, with its clip, opacity, rotation, shadow and link.
        case group = 0
        /// A shape filled or stroked with a paint (`Color`, gradients, `Rectangle`, …).
        case shape = 1
        case text = 2
        case image = 3
        case gauge = 4
        case progress = 5
        /// A toggle's switch (its label is a child).
        case toggle = 6
    }

    /// What the node is or was made from, beyond its kind.
    public struct Flags: OptionSet, Sendable, Hashable {
        public var rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// Drawn as a placeholder bar (`redacted(reason: .placeholder)`, the placeholder entry).
        public static let redacted = Flags(rawValue: 1 << 0)
        /// `privacySensitive()`: hidden when the device is locked.
        public static let privacySensitive = Flags(rawValue: 1 << 1)
        /// `widgetAccentable()`: the accent group in the accented rendering mode.
        public static let accentable = Flags(rawValue: 1 << 2)
        /// The `containerBackground(for: .widget)` content.
        public static let containerBackground = Flags(rawValue: 1 << 3)
        /// `invalidatableContent()`.
        public static let invalidatable = Flags(rawValue: 1 << 4)
        /// An image the SDK could not find (drawn as a marked box of its size).
        public static let missing = Flags(rawValue: 1 << 5)
        /// A stroke drawn inside the shape's bounds (`strokeBorder`).
        public static let strokeInside = Flags(rawValue: 1 << 6)
        /// `Toggle` on.
        public static let isOn = Flags(rawValue: 1 << 7)
    }

    public var kind: Kind
    public var x: Float
    public var y: Float
    public var width: Float
    public var height: Float
    /// Direct children that follow this node.
    public var childCount: Int
    public var flags: Flags
    public var opacity: Float
    /// Degrees clockwise about the node's centre.
    public var rotation: Float
    /// The shape of a `shape` node; the clip of a `group`.
    public var shape: ViewShape?
    /// The fill of a shape, the tint of an image, gauge, progress bar or toggle.
    public var fill: ViewPaint?
    public var stroke: ViewStroke?
    public var shadow: ViewShadow?
    public var text: TextLayout?
    public var image: ImageReference?
    public var meter: MeterValue?
    /// `widgetURL`, `Link`'s destination.
    public var url: String?
    /// `Button(intent:)` and `Toggle(isOn:intent:)`: the intent's type and values.
    public var intent: String?
    /// `accessibilityLabel`.
    public var label: String?

    public init(
        kind: Kind, x: Float, y: Float, width: Float, height: Float, childCount: Int = 0,
        flags: Flags = [], opacity: Float = 1, rotation: Float = 0, shape: ViewShape? = nil,
        fill: ViewPaint? = nil, stroke: ViewStroke? = nil, shadow: ViewShadow? = nil,
        text: TextLayout? = nil, image: ImageReference? = nil, meter: MeterValue? = nil,
        url: String? = nil, intent: String? = nil, label: String? = nil
    ) {
        self.kind = kind
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.childCount = childCount
        self.flags = flags
        self.opacity = opacity
        self.rotation = rotation
        self.shape = shape
        self.fill = fill
        self.stroke = stroke
        self.shadow = shadow
        self.text = text
        self.image = image
        self.meter = meter
        self.url = url
        self.intent = intent
        self.label = label
    }
}

/// A shape, in the node's frame.
public enum ViewShape: Sendable, Hashable {
    case rectangle
    /// `RoundedRectangle`, `ContainerRelativeShape` (its radius resolved), `cornerRadius`.
    case roundedRectangle(radius: Float)
    case capsule
    case ellipse
    /// A `Path` or a custom `Shape`: SVG path data in the widget's coordinates.
    case path(String)
    /// `trim(from:to:)` of another shape: the part of its outline drawn.
    indirect case trimmed(ViewShape, from: Float, to: Float)
}

/// An sRGB colour with alpha, 8 bits a channel, `0xRRGGBBAA`.
public struct RGBA: Sendable, Hashable {
    public var value: UInt32

    public init(_ value: UInt32) { self.value = value }

    public init(red: Double, green: Double, blue: Double, alpha: Double) {
        func channel(_ c: Double) -> UInt32 { UInt32((min(max(c, 0), 1) * 255).rounded()) }
        value = channel(red) << 24 | channel(green) << 16 | channel(blue) << 8 | channel(alpha)
    }

    public var red: UInt8 { UInt8(truncatingIfNeeded: value >> 24) }
    public var green: UInt8 { UInt8(truncatingIfNeeded: value >> 16) }
    public var blue: UInt8 { UInt8(truncatingIfNeeded: value >> 8) }
    public var alpha: UInt8 { UInt8(truncatingIfNeeded: value) }
}

/// A colour in the light and the dark appearance.
public struct ColorPair: Sendable, Hashable {
    public var light: RGBA
    public var dark: RGBA

    public init(light: RGBA, dark: RGBA) {
        self.light = light
        self.dark = dark
    }

    public init(_ both: RGBA) {
        light = both
        dark = both
    }
}

/// A stop of a gradient.
public struct GradientStopPayload: Sendable, Hashable {
    public var color: ColorPair
    /// 0…1 along the gradient.
    public var location: Float

    public init(color: ColorPair, location: Float) {
        self.color = color
        self.location = location
    }
}

/// What fills a shape or colours text.
public enum ViewPaint: Sendable, Hashable {
    case color(ColorPair)
    /// Unit points (0…1 of the node's frame) from `start` to `end`.
    case linearGradient([GradientStopPayload], startX: Float, startY: Float, endX: Float, endY: Float)
    /// A unit-point centre and radii in points.
    case radialGradient([GradientStopPayload], centerX: Float, centerY: Float, startRadius: Float, endRadius: Float)
    /// A colour from the app's asset catalog, by name: the SDK cannot see its value.
    case named(String)
}

/// The outline of a shape.
public struct ViewStroke: Sendable, Hashable {
    public var paint: ViewPaint
    public var lineWidth: Float
    /// `StrokeStyle(lineCap: .round)`.
    public var roundCap: Bool
    /// `StrokeStyle(dash:)`.
    public var dash: [Float]

    public init(paint: ViewPaint, lineWidth: Float, roundCap: Bool = false, dash: [Float] = []) {
        self.paint = paint
        self.lineWidth = lineWidth
        self.roundCap = roundCap
        self.dash = dash
    }
}

/// `shadow(color:radius:x:y:)`.
public struct ViewShadow: Sendable, Hashable {
    public var color: ColorPair
    public var radius: Float
    public var x: Float
    public var y: Float

    public init(color: ColorPair, radius: Float, x: Float, y: Float) {
        self.color = color
        self.radius = radius
        self.x = x
        self.y = y
    }
}

/// A text laid out in lines.
public struct TextLayout: Sendable, Hashable {
    /// `multilineTextAlignment`.
    public enum Alignment: UInt8, Sendable, Hashable {
        case leading = 0, center = 1, trailing = 2
    }

    public var alignment: Alignment
    public var lines: [TextLine]

    public init(alignment: Alignment, lines: [TextLine]) {
        self.alignment = alignment
        self.lines = lines
    }
}

/// One line of a ``TextLayout``, in the node's frame.
public struct TextLine: Sendable, Hashable {
    public var x: Float
    /// The baseline, from the node's top.
    public var baseline: Float
    public var width: Float
    public var runs: [TextRun]

    public init(x: Float, baseline: Float, width: Float, runs: [TextRun]) {
        self.x = x
        self.baseline = baseline
        self.width = width
        self.runs = runs
    }
}

/// A piece of a line in one style.
public struct TextRun: Sendable, Hashable {
    /// The font's design.
    public enum Design: UInt8, Sendable, Hashable {
        case `default` = 0, rounded = 1, serif = 2, monospaced = 3
    }

    public struct Decoration: OptionSet, Sendable, Hashable {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let italic = Decoration(rawValue: 1 << 0)
        public static let underline = Decoration(rawValue: 1 << 1)
        public static let strikethrough = Decoration(rawValue: 1 << 2)
        public static let monospacedDigits = Decoration(rawValue: 1 << 3)
        /// An inline `Image` (its name is the run's text).
        public static let symbol = Decoration(rawValue: 1 << 4)
    }

    /// As resolved at the entry's date.
    public var text: String
    /// Points.
    public var size: Float
    /// 100 (ultra light) … 900 (black); 400 regular.
    public var weight: UInt16
    public var design: Design
    public var decoration: Decoration
    public var paint: ViewPaint
    /// The advance the SDK measured, in points.
    public var width: Float
    /// A date text that changes as time passes (`.relative`, `.offset`, `.timer`,
    /// `timerInterval`): the host resolves it again at the instant it draws.
    public var dynamic: DynamicText?

    public init(
        text: String, size: Float, weight: UInt16 = 400, design: Design = .default, decoration: Decoration = [],
        paint: ViewPaint, width: Float, dynamic: DynamicText? = nil
    ) {
        self.text = text
        self.size = size
        self.weight = weight
        self.design = design
        self.decoration = decoration
        self.paint = paint
        self.width = width
        self.dynamic = dynamic
    }
}

/// An image by name and the size it is drawn at (the node's frame).
public struct ImageReference: Sendable, Hashable {
    public enum Source: UInt8, Sendable, Hashable {
        /// `Image("name")`: from the app's assets.
        case asset = 0
        /// `Image(systemName:)`: an SF Symbol.
        case symbol = 1
        /// `Image(uiImage:)`: pixels the extension made or decoded.
        case bitmap = 2
    }

    public var source: Source
    public var name: String
    /// The image's own size in pixels (0 when unknown).
    public var pixelWidth: Int
    public var pixelHeight: Int

    public init(source: Source, name: String, pixelWidth: Int = 0, pixelHeight: Int = 0) {
        self.source = source
        self.name = name
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }
}

/// The value a gauge or progress view shows.
public struct MeterValue: Sendable, Hashable {
    public enum Style: UInt8, Sendable, Hashable {
        /// A bar (`ProgressView`, `Gauge` by default, `.linearCapacity`, `.accessoryLinearCapacity`).
        case linear = 0
        /// A dot on a bar (`.accessoryLinear`).
        case linearDot = 1
        /// An open ring, 3/4 of a circle, with a dot (`.accessoryCircular`).
        case circularDot = 2
        /// A closed ring filled to the value (`.accessoryCircularCapacity`, circular progress).
        case circular = 3
    }

    public var style: Style
    /// 0…1; nil for an indeterminate progress view.
    public var fraction: Float?
    /// `ProgressView(timerInterval:countsDown:)`: the host computes the fraction when it draws.
    public var timer: DynamicText?

    public init(style: Style, fraction: Float?, timer: DynamicText? = nil) {
        self.style = style
        self.fraction = fraction
        self.timer = timer
    }
}

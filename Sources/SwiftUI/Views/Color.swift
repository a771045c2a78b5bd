import SandglassIPC

/// A colour, with its value in the light and the dark appearance; as a view, a rectangle of it
/// that fills the space it is offered.
///
/// ```swift
/// Color.orange
/// Color(red: 0.2, green: 0.4, blue: 0.9)
/// Color("BrandBlue")                       // from the app's asset catalog
/// ```
public struct Color: Hashable, CustomStringConvertible, Sendable {
    enum Storage: Hashable, Sendable {
        case pair(ColorPair)
        /// An asset-catalog colour: drawn as a marked grey, its name noted.
        case named(String)
    }

    let storage: Storage

    init(_ pair: ColorPair) {
        storage = .pair(pair)
    }

    /// A colour from the app's asset catalog. Sandglass cannot read compiled asset catalogs:
    /// the report draws it as a marked grey and names it.
    public init(_ name: String, bundle: Bundle? = nil) {
        storage = .named(name)
    }

    /// A colour from red, green and blue components (0…1).
    public init(red: Double, green: Double, blue: Double, opacity: Double = 1) {
        self.init(ColorPair(RGBA(red: red, green: green, blue: blue, alpha: opacity)))
    }

    /// A colour in a colour space (Sandglass treats every space as sRGB).
    public init(_ colorSpace: RGBColorSpace, red: Double, green: Double, blue: Double, opacity: Double = 1) {
        self.init(red: red, green: green, blue: blue, opacity: opacity)
    }

    /// A grey.
    public init(white: Double, opacity: Double = 1) {
        self.init(red: white, green: white, blue: white, opacity: opacity)
    }

    /// A grey in a colour space.
    public init(_ colorSpace: RGBColorSpace, white: Double, opacity: Double = 1) {
        self.init(white: white, opacity: opacity)
    }

    /// A colour from hue, saturation and brightness (0…1).
    public init(hue: Double, saturation: Double, brightness: Double, opacity: Double = 1) {
        let h = (hue - hue.rounded(.down)) * 6, s = min(max(saturation, 0), 1), v = min(max(brightness, 0), 1)
        let c = v * s, x = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1)), m = v - c
        let (r, g, b): (Double, Double, Double) =
            switch Int(h) {
            case 0: (c, x, 0)
            case 1: (x, c, 0)
            case 2: (0, c, x)
            case 3: (0, x, c)
            case 4: (x, 0, c)
            default: (c, 0, x)
            }
        self.init(red: r + m, green: g + m, blue: b + m, opacity: opacity)
    }

    /// The colour space of a colour's components.
    public enum RGBColorSpace: Sendable, Hashable {
        case sRGB, sRGBLinear, displayP3
    }

    public var description: String {
        switch storage {
        case .pair(let pair):
            let hex = String(pair.light.value, radix: 16, uppercase: true)
            return "#" + String(repeating: "0", count: max(0, 8 - hex.count)) + hex
        case .named(let name): return "NamedColor(\"\(name)\")"
        }
    }

    /// This colour with its opacity multiplied by `opacity`.
    public func opacity(_ opacity: Double) -> Color {
        switch storage {
        case .pair(let pair): Color(ColorPair(light: pair.light.withOpacity(opacity), dark: pair.dark.withOpacity(opacity)))
        case .named: self
        }
    }

    public static let red = Color(SystemColor.red)
    public static let orange = Color(SystemColor.orange)
    public static let yellow = Color(SystemColor.yellow)
    public static let green = Color(SystemColor.green)
    public static let mint = Color(SystemColor.mint)
    public static let teal = Color(SystemColor.teal)
    public static let cyan = Color(SystemColor.cyan)
    public static let blue = Color(SystemColor.blue)
    public static let indigo = Color(SystemColor.indigo)
    public static let purple = Color(SystemColor.purple)
    public static let pink = Color(SystemColor.pink)
    public static let brown = Color(SystemColor.brown)
    public static let gray = Color(SystemColor.gray)
    public static let white = Color(SystemColor.white)
    public static let black = Color(SystemColor.black)
    public static let clear = Color(SystemColor.clear)
    /// The label colour: black in the light appearance, white in the dark.
    public static let primary = Color(SystemColor.labels[0])
    /// The secondary label colour.
    public static let secondary = Color(SystemColor.labels[1])
    /// The app's accent colour (the system blue; Sandglass cannot read `AccentColor` from the assets).
    public static let accentColor = Color(SystemColor.blue)
}

extension Color: ShapeStyle, PaintSource {
    public func _resolvePaint(in environment: EnvironmentValues) -> _ResolvedPaint {
        _ResolvedPaint(paint: paint(in: environment))
    }

    func paint(in environment: EnvironmentValues) -> ViewPaint {
        switch storage {
        case .pair(let pair): .color(pair)
        case .named(let name): .named(name)
        }
    }
}

extension Color: View, PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    public var body: Never { primitiveBody(Self.self) }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] {
        [ShapeNode(shape: .rectangle, fill: paint(in: context.environment))]
    }
}

extension ShapeStyle where Self == Color {
    public static var red: Color { .red }
    public static var orange: Color { .orange }
    public static var yellow: Color { .yellow }
    public static var green: Color { .green }
    public static var mint: Color { .mint }
    public static var teal: Color { .teal }
    public static var cyan: Color { .cyan }
    public static var blue: Color { .blue }
    public static var indigo: Color { .indigo }
    public static var purple: Color { .purple }
    public static var pink: Color { .pink }
    public static var brown: Color { .brown }
    public static var gray: Color { .gray }
    public static var white: Color { .white }
    public static var black: Color { .black }
    public static var clear: Color { .clear }
}

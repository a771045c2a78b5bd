/// The template of a widget: its size on the Home Screen or its shape on the Lock Screen.
///
/// The raw value is the name the host uses on the wire (`"systemSmall"`, …).
public enum WidgetFamily: String, CaseIterable, Codable, Sendable, CustomStringConvertible {
    /// A small square widget.
    case systemSmall
    /// A medium widget, twice as wide as a small one.
    case systemMedium
    /// A large widget.
    case systemLarge
    /// An extra-large widget (iPad, Mac).
    case systemExtraLarge
    /// A circular Lock Screen accessory.
    case accessoryCircular
    /// A rectangular Lock Screen accessory.
    case accessoryRectangular
    /// A single line of text above the time on the Lock Screen.
    case accessoryInline

    /// The family's name, as Apple prints it.
    public var description: String { rawValue }

    /// The size, in points, Sandglass gives a widget of this family when the host names none
    /// (an iPhone's: small 170×170, medium 364×170, large 364×382, extra large 715×338,
    /// circular 76×76, rectangular 172×76, inline 257×26).
    public var displaySize: CGSize {
        switch self {
        case .systemSmall: CGSize(width: 170, height: 170)
        case .systemMedium: CGSize(width: 364, height: 170)
        case .systemLarge: CGSize(width: 364, height: 382)
        case .systemExtraLarge: CGSize(width: 715, height: 338)
        case .accessoryCircular: CGSize(width: 76, height: 76)
        case .accessoryRectangular: CGSize(width: 172, height: 76)
        case .accessoryInline: CGSize(width: 257, height: 26)
        }
    }
}

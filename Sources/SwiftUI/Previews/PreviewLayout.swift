import Foundation

/// The size of a preview's container (`previewLayout(_:)`).
public enum PreviewLayout: Sendable {
    /// The container of the run destination's device.
    case device
    /// A container the size of the view.
    case sizeThatFits
    /// A container of a fixed size.
    case fixed(width: CGFloat, height: CGFloat)
}

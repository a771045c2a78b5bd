import Foundation

/// A setting of a preview: its layout or its device's orientation (`#Preview(traits:)`).
/// Sandglass accepts traits and, having no canvas, ignores them.
///
/// ```swift
/// #Preview(traits: .sizeThatFitsLayout) {
///     ScoreView(score: 42)
/// }
/// ```
public struct PreviewTrait<T>: Sendable {
    init() {}
}

extension PreviewTrait where T == Preview.ViewTraits {
    /// The preview in the container of the run destination's device.
    public static var defaultLayout: PreviewTrait<T> { PreviewTrait() }

    /// The preview in a container the size of the view.
    public static var sizeThatFitsLayout: PreviewTrait<T> { PreviewTrait() }

    /// The preview in a container of a fixed size.
    public static func fixedLayout(width: CGFloat, height: CGFloat) -> PreviewTrait<T> { PreviewTrait() }

    /// The device upright.
    public static var portrait: PreviewTrait<T> { PreviewTrait() }

    /// The device upside down.
    public static var portraitUpsideDown: PreviewTrait<T> { PreviewTrait() }

    /// The device turned with its top to the left.
    public static var landscapeLeft: PreviewTrait<T> { PreviewTrait() }

    /// The device turned with its top to the right.
    public static var landscapeRight: PreviewTrait<T> { PreviewTrait() }
}

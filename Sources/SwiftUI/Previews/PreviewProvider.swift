/// A type that produces view previews in Xcode, the form before `#Preview`. Sandglass compiles
/// providers and never asks them for their previews.
///
/// ```swift
/// struct ScoreView_Previews: PreviewProvider {
///     static var previews: some View {
///         ScoreView(score: 42)
///             .previewContext(WidgetPreviewContext(family: .systemSmall))
///     }
/// }
/// ```
@MainActor @preconcurrency
public protocol PreviewProvider {
    /// The type of the previews.
    associatedtype Previews: View

    /// The views to preview.
    @ViewBuilder @MainActor @preconcurrency static var previews: Previews { get }

    /// The platform to run the previews on; `nil` (the target's) by default.
    @MainActor @preconcurrency static var platform: PreviewPlatform? { get }
}

extension PreviewProvider {
    /// The target's platform.
    public static var platform: PreviewPlatform? { nil }
}

/// A platform a preview can run on.
public enum PreviewPlatform: Sendable {
    case iOS
    case macOS
    case tvOS
    case watchOS
}

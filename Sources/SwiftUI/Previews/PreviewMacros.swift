/// A preview of a view in Xcode's canvas. Sandglass compiles it — the body is type-checked
/// against this SDK, as Xcode checks it — and never runs it.
///
/// ```swift
/// #Preview {
///     ScoreView(score: 42)
/// }
/// ```
///
/// A module built with `swiftSettings: [.define("SANDGLASS_SKIP_PREVIEWS")]` skips previews
/// altogether: they are not checked either.
@freestanding(declaration)
public macro Preview(_ name: String? = nil, @ViewBuilder body: @escaping @MainActor () -> any View) =
    #externalMacro(module: "SandglassPreviewMacros", type: "PreviewMacro")

/// A preview of a view with traits (`.sizeThatFitsLayout`, `.landscapeLeft`…), compiled and
/// never run, like `#Preview { … }`.
@freestanding(declaration)
public macro Preview(
    _ name: String? = nil, traits: PreviewTrait<Preview.ViewTraits>, _ additionalTraits: PreviewTrait<Preview.ViewTraits>...,
    @ViewBuilder body: @escaping @MainActor () -> any View
) =
    #externalMacro(module: "SandglassPreviewMacros", type: "PreviewMacro")

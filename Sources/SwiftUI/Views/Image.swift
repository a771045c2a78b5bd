import SandglassIPC

/// An image: an SF Symbol, an image of the app's assets, or a `UIImage`. Sandglass draws images
/// as what they are — a symbol's name in its colour, an asset's name in a box of its size, a
/// bitmap's size — not their pixels.
///
/// ```swift
/// Image(systemName: "cloud.sun.fill")
/// Image("team-logo").resizable().scaledToFit()
/// ```
public struct Image: Sendable {
    enum Source: Sendable {
        case symbol(String)
        case asset(String)
        case bitmap(UIImage)
    }

    let source: Source
    var isResizable = false
    var renderingMode: TemplateRenderingMode?

    /// An SF Symbol.
    public init(systemName: String) {
        source = .symbol(systemName)
    }

    /// An image of the app's assets (a file of the extension's bundle when there is one).
    public init(_ name: String, bundle: Bundle? = nil) {
        source = .asset(name)
    }

    /// An image of the assets that accessibility ignores.
    public init(decorative name: String, bundle: Bundle? = nil) {
        self.init(name, bundle: bundle)
    }

    /// A bitmap.
    public init(uiImage: UIImage) {
        source = .bitmap(uiImage)
    }

    /// This image stretched to the space it is offered.
    public func resizable(capInsets: EdgeInsets = EdgeInsets(), resizingMode: ResizingMode = .stretch) -> Image {
        var image = self
        image.isResizable = true
        return image
    }

    /// This image as a template (coloured by the foreground) or in its own colours.
    public func renderingMode(_ renderingMode: TemplateRenderingMode?) -> Image {
        var image = self
        image.renderingMode = renderingMode
        return image
    }

    /// The quality of scaling (not drawn).
    public func interpolation(_ interpolation: Interpolation) -> Image { self }

    /// Antialiasing (not drawn).
    public func antialiased(_ isAntialiased: Bool) -> Image { self }

    /// How a resizable image fills its space.
    public enum ResizingMode: Sendable, Hashable {
        case tile, stretch
    }

    /// Whether an image is coloured by the foreground style.
    public enum TemplateRenderingMode: Sendable, Hashable {
        case template, original
    }

    /// The quality of scaling.
    public enum Interpolation: Sendable, Hashable {
        case none, low, medium, high
    }

    /// The size of symbols relative to the text around them.
    public enum Scale: Sendable, Hashable {
        case small, medium, large

        var factor: CGFloat {
            switch self {
            case .small: 0.78
            case .medium: 1
            case .large: 1.29
            }
        }
    }

    /// The name an inline image shows in a text.
    var inlineName: String {
        switch source {
        case .symbol(let name), .asset(let name): name
        case .bitmap(let image): image.name
        }
    }
}

private struct ImageScaleKey: EnvironmentKey { static let defaultValue = Image.Scale.medium }

extension EnvironmentValues {
    /// The size of symbols.
    public var imageScale: Image.Scale {
        get { self[ImageScaleKey.self] }
        set { self[ImageScaleKey.self] = newValue }
    }
}

extension Image: View, PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    public var body: Never { primitiveBody(Self.self) }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] {
        let environment = context.environment
        let flags = environment.drawingFlags
        switch source {
        case .symbol(let name):
            let font = environment.font ?? .body
            let side = (font.size * environment.imageScale.factor).rounded()
            return [
                ImageNode(
                    reference: ImageReference(source: .symbol, name: name), intrinsic: CGSize(width: side * 1.1, height: side),
                    resizable: isResizable, tint: renderingMode == .original ? nil : environment.foregroundPaint, flags: flags)
            ]
        case .asset(let name):
            guard let image = UIImage(named: name) else {
                context.session.note(
                    "Image(\"\(name)\"): not in the extension's bundle (asset catalogs are not read); SwiftUI shows nothing")
                var missing = flags
                missing.insert(.missing)
                return [
                    ImageNode(
                        reference: ImageReference(source: .asset, name: name), intrinsic: .zero, resizable: isResizable,
                        tint: nil, flags: missing)
                ]
            }
            return [bitmapNode(image, source: .asset, name: name, context)]
        case .bitmap(let image):
            return [bitmapNode(image, source: image.isSymbol ? .symbol : .bitmap, name: image.name, context)]
        }
    }

    @MainActor
    private func bitmapNode(_ image: UIImage, source: ImageReference.Source, name: String, _ context: ResolveContext) -> LayoutNode {
        context.session.bitmaps.decode(image.decodedByteCount)
        let reference = ImageReference(
            source: source, name: name, pixelWidth: Int(min(image.size.width * image.scale, 1e9)),
            pixelHeight: Int(min(image.size.height * image.scale, 1e9)))
        return ImageNode(
            reference: reference, intrinsic: image.size, resizable: isResizable,
            tint: renderingMode == .template ? context.environment.foregroundPaint : nil,
            flags: context.environment.drawingFlags)
    }
}

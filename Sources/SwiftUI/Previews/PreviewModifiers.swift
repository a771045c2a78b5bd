// The modifiers of PreviewProvider previews. They configure Xcode's canvas; Sandglass, which
// never runs previews, returns the view as it is.

extension View {
    /// The context the preview is shown in, such as `WidgetPreviewContext(family: .systemSmall)`.
    public func previewContext<C: PreviewContext>(_ value: C) -> Self { self }

    /// The name the canvas shows for the preview.
    public func previewDisplayName(_ value: String?) -> Self { self }

    /// The size of the preview's container.
    public func previewLayout(_ value: PreviewLayout) -> Self { self }

    /// The simulator device the preview runs on; `nil` for the run destination's.
    public func previewDevice(_ value: PreviewDevice?) -> Self { self }

    /// The orientation of the preview's device.
    public func previewInterfaceOrientation(_ value: InterfaceOrientation) -> Self { self }
}

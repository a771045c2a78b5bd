/// What a provider is told about the widget it provides for.
public struct TimelineProviderContext: Sendable {
    /// The family of the widget.
    public let family: WidgetFamily

    /// `true` when the widget appears in the widget gallery: answer quickly, with sample data
    /// if the real data takes long.
    public let isPreview: Bool

    /// The size of the widget, in points.
    public let displaySize: CGSize

    init(family: WidgetFamily, isPreview: Bool, displaySize: CGSize) {
        self.family = family
        self.isPreview = isPreview
        self.displaySize = displaySize
    }
}

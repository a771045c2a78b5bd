/// What a provider is told about the widget it provides for.
public struct TimelineProviderContext: Sendable {
    /// The family of the widget.
    public let family: WidgetFamily

    /// `true` when the widget appears in the widget gallery: answer quickly, with sample data
    /// if the real data takes long.
    public let isPreview: Bool

    /// The size of the widget, in points.
    public let displaySize: CGSize

    /// The widget's kind (for the SDK's messages).
    let kind: String

    /// The widget's configuration as the host sent it (a JSON object of intent parameters),
    /// empty when it has none.
    let intentConfiguration: [UInt8]

    init(family: WidgetFamily, isPreview: Bool, displaySize: CGSize, kind: String = "", intentConfiguration: [UInt8] = []) {
        self.family = family
        self.isPreview = isPreview
        self.displaySize = displaySize
        self.kind = kind
        self.intentConfiguration = intentConfiguration
    }
}

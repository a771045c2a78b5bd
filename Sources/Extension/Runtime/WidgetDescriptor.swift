import SandglassIPC

/// One widget kind as its configuration describes it: names, families, the erased provider and
/// the optional view renderer. Every configuration turns into descriptors; the runtime serves them.
@usableFromInline
struct WidgetDescriptor: Sendable {
    var kind: String
    var displayName = ""
    var summary = ""
    /// `nil` until `supportedFamilies(_:)` is applied: every family.
    var supportedFamilies: [WidgetFamily]?
    var contentMarginsDisabled = false
    /// `onBackgroundURLSessionEvents` and `backgroundTask(.urlSession…)`, in the order applied.
    var backgroundSessionHandlers: [BackgroundSessionHandler] = []
    let provider: ErasedProvider
    let renderer: EntryRenderer?

    init(kind: String, provider: ErasedProvider, renderer: EntryRenderer?) {
        self.kind = kind
        self.provider = provider
        self.renderer = renderer
    }

    /// The families the widget supports.
    var families: [WidgetFamily] { supportedFamilies ?? WidgetFamily.allCases }

    /// The widget as `hello` declares it.
    var wireDescription: WidgetDescription {
        WidgetDescription(
            kind: kind,
            displayName: displayName,
            summary: summary,
            supportedFamilies: families.map(\.rawValue)
        )
    }
}

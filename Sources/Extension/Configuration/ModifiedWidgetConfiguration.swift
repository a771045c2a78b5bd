/// A configuration with one modifier applied, as the modifiers of ``WidgetConfiguration``
/// return it.
///
/// Not isolated to the main actor, so that `nonisolated` modifiers such as `backgroundTask` can
/// make one; its descriptors are still read on the main actor.
public nonisolated struct _ModifiedWidgetConfiguration<Base: WidgetConfiguration>: WidgetConfiguration {
    let base: Base
    let modify: @MainActor (inout WidgetDescriptor) -> Void

    /// A modified configuration has no body of its own.
    @MainActor public var body: Never {
        fatalError("_ModifiedWidgetConfiguration has no body")
    }
}

extension _ModifiedWidgetConfiguration: WidgetDescriptorSource {
    @MainActor public var _widgetDescriptors: _WidgetDescriptors? { _WidgetDescriptors(widgetDescriptors) }

    @MainActor var widgetDescriptors: [WidgetDescriptor] {
        descriptors(of: base).map { descriptor in
            var descriptor = descriptor
            modify(&descriptor)
            return descriptor
        }
    }
}

extension WidgetConfiguration {
    /// The name shown for the widget in the widget gallery.
    ///
    /// ```swift
    /// .configurationDisplayName("Leaderboard")
    /// ```
    public func configurationDisplayName<S: StringProtocol>(_ displayName: S) -> some WidgetConfiguration {
        let name = String(displayName)
        return _ModifiedWidgetConfiguration(base: self) { $0.displayName = name }
    }

    /// The description shown for the widget in the widget gallery.
    ///
    /// ```swift
    /// .description("The top players of the week.")
    /// ```
    public func description<S: StringProtocol>(_ description: S) -> some WidgetConfiguration {
        let summary = String(description)
        return _ModifiedWidgetConfiguration(base: self) { $0.summary = summary }
    }

    /// The families the widget supports; without this modifier it supports them all.
    ///
    /// ```swift
    /// .supportedFamilies([.systemSmall, .systemMedium])
    /// ```
    public func supportedFamilies(_ families: [WidgetFamily]) -> some WidgetConfiguration {
        _ModifiedWidgetConfiguration(base: self) { $0.supportedFamilies = families }
    }

    /// Turns off the system's content margins around the widget's view.
    public func contentMarginsDisabled() -> some WidgetConfiguration {
        _ModifiedWidgetConfiguration(base: self) { $0.contentMarginsDisabled = true }
    }
}

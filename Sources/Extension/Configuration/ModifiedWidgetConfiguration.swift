/// A configuration with one modifier applied, as the modifiers of ``WidgetConfiguration``
/// return it.
///
/// Not generic over the configuration it modifies: a chain of modifiers is one type, not a
/// type nested once per modifier, so a new process instantiating the type of a widget's `body`
/// does not check `WidgetConfiguration` once per level (each check a scan of every protocol
/// conformance in the executable on a cold start).
///
/// Not isolated to the main actor, so that `nonisolated` modifiers such as `backgroundTask` can
/// make one; its descriptors are still read on the main actor.
public nonisolated struct _ModifiedWidgetConfiguration: WidgetConfiguration {
    /// The descriptors of the configuration modified.
    let base: @MainActor () -> [WidgetDescriptor]
    let modify: @MainActor (inout WidgetDescriptor) -> Void

    init<Base: WidgetConfiguration>(base: Base, modify: @escaping @MainActor (inout WidgetDescriptor) -> Void) {
        let box = ConfigurationBox(base)
        self.base = { descriptors(of: box.configuration) }
        self.modify = modify
    }

    /// A modified configuration has no body of its own.
    @MainActor public var body: Never {
        fatalError("_ModifiedWidgetConfiguration has no body")
    }
}

/// Holds the configuration a modifier was applied to; it is only read on the main actor, where
/// its descriptors are made.
private final class ConfigurationBox<Base: WidgetConfiguration>: @unchecked Sendable {
    let configuration: Base

    init(_ configuration: Base) {
        self.configuration = configuration
    }
}

extension _ModifiedWidgetConfiguration: WidgetDescriptorSource {
    @MainActor public var _widgetDescriptors: _WidgetDescriptors? { _WidgetDescriptors(widgetDescriptors) }

    @MainActor var widgetDescriptors: [WidgetDescriptor] {
        base().map { descriptor in
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

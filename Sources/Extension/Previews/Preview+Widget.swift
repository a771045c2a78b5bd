import SwiftUI

// The initializers WidgetKit's `#Preview` macros expand to: their arguments are type-checked,
// never called.

extension Preview {
    /// The preview of a widget stepping through a timeline of entries.
    public init(
        _ name: String? = nil, as family: WidgetFamily, widget: @escaping () -> some Widget,
        @PreviewTimelineBuilder timeline: @escaping @MainActor () async -> [any TimelineEntry]
    ) {
        self.init()
    }

    /// The preview of a widget with a static configuration and its timeline provider.
    public init(
        _ name: String? = nil, as family: WidgetFamily, widget: @escaping () -> some Widget,
        timelineProvider: @escaping () -> some TimelineProvider
    ) {
        self.init()
    }

    /// The preview of a widget with an app intent configuration and its timeline provider.
    public init<Provider: AppIntentTimelineProvider>(
        _ name: String? = nil, as family: WidgetFamily, using intent: Provider.Intent,
        widget: @escaping () -> some Widget, timelineProvider: @escaping () -> Provider
    ) {
        self.init()
    }

    /// The preview of a widget with a SiriKit intent configuration and its timeline provider.
    public init<Provider: IntentTimelineProvider>(
        _ name: String? = nil, as family: WidgetFamily, using intent: Provider.Intent,
        widget: @escaping () -> some Widget, timelineProvider: @escaping () -> Provider
    ) {
        self.init()
    }
}

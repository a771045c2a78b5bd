import SwiftUI

// The preview macros of widgets, with Apple's parameter lists. Sandglass compiles each preview —
// the widget, the timeline or the provider are type-checked against this SDK, as Xcode checks
// them — and never runs it. A module built with
// `swiftSettings: [.define("SANDGLASS_SKIP_PREVIEWS")]` skips previews altogether.

/// A preview of a widget stepping through a timeline of entries.
///
/// ```swift
/// #Preview(as: .systemSmall) {
///     MyWidget()
/// } timeline: {
///     SimpleEntry(date: .now, emoji: "😀")
///     SimpleEntry(date: .now, emoji: "🤩")
/// }
/// ```
@freestanding(declaration)
public macro Preview<W: Widget>(
    _ name: String? = nil, as family: WidgetFamily, widget: @escaping () -> W,
    @PreviewTimelineBuilder timeline: @escaping @MainActor () async -> [any TimelineEntry]
) =
    #externalMacro(module: "SandglassPreviewMacros", type: "PreviewMacro")

/// A preview of a widget with a static configuration, its entries from `timelineProvider`.
@freestanding(declaration)
public macro Preview<W: Widget, Provider: TimelineProvider>(
    _ name: String? = nil, as family: WidgetFamily, widget: @escaping () -> W,
    timelineProvider: @escaping () -> Provider
) =
    #externalMacro(module: "SandglassPreviewMacros", type: "PreviewMacro")

/// A preview of a widget with an app intent configuration, its entries from `timelineProvider`
/// for `intent`.
@freestanding(declaration)
public macro Preview<W: Widget, Provider: AppIntentTimelineProvider>(
    _ name: String? = nil, as family: WidgetFamily, using intent: Provider.Intent,
    widget: @escaping () -> W, timelineProvider: @escaping () -> Provider
) =
    #externalMacro(module: "SandglassPreviewMacros", type: "PreviewMacro")

/// A preview of a widget with a SiriKit intent configuration, its entries from
/// `timelineProvider` for `intent`.
@freestanding(declaration)
public macro Preview<W: Widget, Provider: IntentTimelineProvider>(
    _ name: String? = nil, as family: WidgetFamily, using intent: Provider.Intent,
    widget: @escaping () -> W, timelineProvider: @escaping () -> Provider
) =
    #externalMacro(module: "SandglassPreviewMacros", type: "PreviewMacro")

import SandglassIPC
import SwiftUI

/// A configuration's content closure, as the system uses it: each entry's view evaluated with
/// the widget's family and environment and laid out at its size, in the extension's process,
/// inside the activation's time and memory — as iOS renders widgets after `getTimeline`.
///
/// The closure runs on the main actor, where Apple's view builders run.
struct EntryRenderer: Sendable {
    let render: @MainActor (any TimelineEntry, WidgetRenderRequest) -> ViewRendering

    init<Entry: TimelineEntry, Content: View>(_ content: @escaping @MainActor (Entry) -> Content) {
        render = { entry, request in
            guard let entry = entry as? Entry else {
                return WidgetRenderer.render(Text(verbatim: String(describing: entry)), request)
            }
            return WidgetRenderer.render(content(entry), request)
        }
    }
}

/// What the system tells a widget's views: its family, size, margins, rendering mode and
/// whether it is a placeholder.
struct WidgetRenderContext: Sendable {
    let family: WidgetFamily
    let size: CGSize
    let contentMarginsDisabled: Bool
    let isPlaceholder: Bool

    /// The request for an entry dated `date`.
    @MainActor
    func request(at date: Date) -> WidgetRenderRequest {
        let isAccessory = family.isAccessory
        let margins = contentMarginsDisabled || isAccessory ? EdgeInsets() : family.contentMargins
        var environment = EnvironmentValues()
        environment.widgetFamily = family
        environment.widgetRenderingMode = isAccessory ? .vibrant : .fullColor
        environment.showsWidgetContainerBackground = !isAccessory
        environment.widgetContentMargins = family.isAccessory ? EdgeInsets() : family.contentMargins
        if isPlaceholder { environment.redactionReasons = .placeholder }
        return WidgetRenderRequest(
            size: size, cornerRadius: family.cornerRadius(for: size), contentMargins: margins,
            family: family.rawValue, showsContainerBackground: !isAccessory, date: date,
            environment: environment)
    }
}

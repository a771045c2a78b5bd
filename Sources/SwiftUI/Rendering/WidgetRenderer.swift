import SandglassIPC

/// How WidgetKit asks for an entry's view to be rendered: the family's size and shape, the
/// margins, the entry's date and the environment the system sets.
package struct WidgetRenderRequest {
    /// Points.
    package var size: CGSize
    /// The radius of the widget's corners; for `accessoryCircular`, half its side.
    package var cornerRadius: CGFloat
    /// Around the content, inside the container background (0 when the widget disabled them).
    package var contentMargins: EdgeInsets
    /// `systemSmall`, …
    package var family: String
    /// Whether the system draws the container background (the Home Screen: yes; the Lock
    /// Screen's accessory families: no).
    package var showsContainerBackground: Bool
    /// The entry's date.
    package var date: Date
    /// The environment WidgetKit sets (family, rendering mode, redaction…); the renderer sets
    /// `colorScheme`.
    package var environment: EnvironmentValues

    package init(
        size: CGSize, cornerRadius: CGFloat, contentMargins: EdgeInsets, family: String,
        showsContainerBackground: Bool, date: Date, environment: EnvironmentValues
    ) {
        self.size = size
        self.cornerRadius = cornerRadius
        self.contentMargins = contentMargins
        self.family = family
        self.showsContainerBackground = showsContainerBackground
        self.date = date
        self.environment = environment
    }
}

/// Evaluates an entry's view and lays it out as the system does for a widget, giving the
/// tree the host draws.
package enum WidgetRenderer {
    /// The view in the light appearance, and again in the dark one when its body read
    /// `colorScheme`; the time both took.
    @MainActor
    package static func render<V: View>(_ view: V, _ request: WidgetRenderRequest) -> ViewRendering {
        let started = DispatchTime.now().uptimeNanoseconds
        EnvironmentValues.colorSchemeReads = 0
        let light = tree(view, request, scheme: .light)
        let readsScheme = EnvironmentValues.colorSchemeReads > 0
        let dark = readsScheme ? tree(view, request, scheme: .dark) : nil
        return ViewRendering(light: light, dark: dark, nanoseconds: DispatchTime.now().uptimeNanoseconds - started)
    }

    @MainActor
    private static func tree<V: View>(_ view: V, _ request: WidgetRenderRequest, scheme: ColorScheme) -> ViewTree {
        let session = RenderSession(date: request.date)
        defer { session.bitmaps.free() }
        var environment = request.environment
        environment.colorScheme = scheme
        let context = ResolveContext(environment: environment, session: session)
        let root = resolveNode(view, context)

        let widget = CGRect(origin: .zero, size: request.size)
        var emitter = NodeEmitter(widget: widget, cornerRadius: request.cornerRadius)
        var container = ViewNode(.group, widget)
        container.shape = containerShape(request)
        container.url = session.widgetURL?.absoluteString
        emitter.group(container) { emitter in
            if request.showsContainerBackground {
                // What the system draws under a widget: its own background, opaque.
                var base = ViewNode(.shape, widget)
                base.shape = .rectangle
                base.fill = SystemColor.widgetBackground.paint
                emitter.leaf(base)
                if let background = session.containerBackground {
                    var group = ViewNode(.group, widget)
                    group.flags = .containerBackground
                    emitter.group(group) { background.place(in: widget, &$0) }
                } else {
                    session.note(
                        "no containerBackground(for: .widget): iOS 17 and later show \"Please adopt containerBackground API\" instead of this widget"
                    )
                }
            }
            let m = request.contentMargins
            let content = CGRect(
                x: m.leading, y: m.top, width: max(0, widget.width - m.leading - m.trailing),
                height: max(0, widget.height - m.top - m.bottom))
            let size = root.size(for: ProposedSize(content.size))
            root.place(in: CGRect(origin: Alignment.center.origin(of: size, in: content), size: size), &emitter)
        }
        return ViewTree(
            width: Float(request.size.width), height: Float(request.size.height), cornerRadius: Float(request.cornerRadius),
            family: request.family, nodes: emitter.nodes, notes: session.notes)
    }

    private static func containerShape(_ request: WidgetRenderRequest) -> ViewShape? {
        if request.family == "accessoryCircular" { return .ellipse }
        return request.cornerRadius > 0 ? .roundedRectangle(radius: Float(request.cornerRadius)) : nil
    }
}

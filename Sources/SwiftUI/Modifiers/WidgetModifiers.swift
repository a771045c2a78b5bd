import SandglassIPC

/// Where a container background goes: `.widget` (WidgetKit declares it).
public struct ContainerBackgroundPlacement: Sendable, Hashable {
    let name: String

    /// A placement by name, for the frameworks that declare them.
    package init(name: String) {
        self.name = name
    }

    var isWidget: Bool { name == "widget" }
}

extension View {
    /// The background of the container the view is the content of: for a widget, drawn behind
    /// everything, to the widget's edges, and removed where the system removes it (the Lock
    /// Screen, StandBy).
    public func containerBackground<V: View>(
        for container: ContainerBackgroundPlacement, alignment: Alignment = .center,
        @ViewBuilder content: () -> V
    ) -> ModifiedContent<Self, _PrimitiveModifier> {
        let background = content()
        return wrappingNodes { node, context in
            if container.isWidget {
                let resolved = resolveNode(background, context)
                context.session.containerBackground = FlexibleFrameNode(
                    horizontal: .init(max: .infinity), vertical: .init(max: .infinity),
                    alignment: alignment, child: resolved)
            }
            return node
        }
    }

    /// A style as the background of the container the view is the content of.
    public func containerBackground<S: ShapeStyle>(
        _ style: S, for container: ContainerBackgroundPlacement
    ) -> ModifiedContent<Self, _PrimitiveModifier> {
        containerBackground(for: container) { Rectangle().fill(style) }
    }

    /// The URL the app is opened with when the widget is tapped.
    public func widgetURL(_ url: URL?) -> ModifiedContent<Self, _PrimitiveModifier> {
        wrappingNodes { node, context in
            if let url { context.session.widgetURL = url }
            return node
        }
    }

    /// The view in the accent group of the accented rendering mode.
    public func widgetAccentable(_ accentable: Bool = true) -> ModifiedContent<Self, _PrimitiveModifier> {
        modifyingEnvironment { $0.isAccentable = accentable }
    }

    /// The view hidden while the device is locked (drawn with a mark).
    public func privacySensitive(_ sensitive: Bool = true) -> ModifiedContent<Self, _PrimitiveModifier> {
        modifyingEnvironment { $0.isPrivacySensitive = sensitive }
    }

    /// The view drawn redacted for `reason` (`.placeholder`: text and images as grey shapes).
    public func redacted(reason: RedactionReasons) -> ModifiedContent<Self, _PrimitiveModifier> {
        modifyingEnvironment { $0.redactionReasons.formUnion(reason) }
    }

    /// The view drawn as it is even in a placeholder.
    public func unredacted() -> ModifiedContent<Self, _PrimitiveModifier> {
        modifyingEnvironment { $0.isUnredacted = true }
    }

    /// The view shown as out of date between an app intent and the reload that follows it.
    public func invalidatableContent(_ invalidatable: Bool = true) -> ModifiedContent<Self, _PrimitiveModifier> {
        modifyingEnvironment { $0.isInvalidatable = invalidatable }
    }

    /// How the view changes between entries (a widget's entries are drawn still).
    public func contentTransition(_ transition: ContentTransition) -> Self { self }

    /// How the view comes and goes between entries (drawn still).
    public func transition(_ transition: AnyTransition) -> Self { self }

    /// An animation between entries (drawn still).
    public func animation<V: Equatable>(_ animation: Animation?, value: V) -> Self { self }
}

/// How content changes between entries.
public struct ContentTransition: Sendable, Hashable {
    let kind: Int
    public static let identity = ContentTransition(kind: 0)
    public static let opacity = ContentTransition(kind: 1)
    public static let interpolate = ContentTransition(kind: 2)
    public static func numericText(countsDown: Bool = false) -> ContentTransition { ContentTransition(kind: 3) }
    public static func numericText(value: Double) -> ContentTransition { ContentTransition(kind: 3) }
}

/// How a view comes and goes.
public struct AnyTransition: Sendable {
    public static let identity = AnyTransition()
    public static let opacity = AnyTransition()
    public static let scale = AnyTransition()
    public static let slide = AnyTransition()
    public static func move(edge: Edge) -> AnyTransition { AnyTransition() }
    public static func push(from edge: Edge) -> AnyTransition { AnyTransition() }
}

/// An animation.
public struct Animation: Sendable, Hashable {
    let kind: Int
    public static let `default` = Animation(kind: 0)
    public static let linear = Animation(kind: 1)
    public static let easeIn = Animation(kind: 2)
    public static let easeOut = Animation(kind: 3)
    public static let easeInOut = Animation(kind: 4)
    public static let spring = Animation(kind: 5)
    public static let bouncy = Animation(kind: 6)
    public static let smooth = Animation(kind: 7)
}

/// A title with an icon: `Label("Rain", systemImage: "cloud.rain")`.
nonisolated public struct Label<Title: View, Icon: View>: View {
    let title: Title
    let icon: Icon

    public init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) {
        self.title = title()
        self.icon = icon()
    }

    public var body: Never { primitiveBody(Self.self) }
}

extension Label where Title == Text, Icon == Image {
    public init(_ titleKey: LocalizedStringKey, systemImage name: String) {
        self.init(title: { Text(titleKey) }, icon: { Image(systemName: name) })
    }

    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, systemImage name: String) {
        self.init(title: { Text(title) }, icon: { Image(systemName: name) })
    }

    public init(_ titleKey: LocalizedStringKey, image name: String) {
        self.init(title: { Text(titleKey) }, icon: { Image(name) })
    }

    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, image name: String) {
        self.init(title: { Text(title) }, icon: { Image(name) })
    }
}

extension Label: PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] {
        let titleNodes = resolveNodes(title, context)
        let iconNodes = resolveNodes(icon, context)
        switch context.environment.labelStyle {
        case .titleOnly: return titleNodes
        case .iconOnly: return iconNodes
        case .titleAndIcon:
            return [
                StackNode(
                    axis: .horizontal, alignment: 0.5, verticalAlignment: .center, spacing: 6,
                    children: iconNodes + titleNodes)
            ]
        }
    }
}

/// How a label shows: `.titleAndIcon` (the default), `.titleOnly`, `.iconOnly`.
public struct LabelStyleChoice: Sendable, Hashable {
    enum Kind: Sendable, Hashable { case titleAndIcon, titleOnly, iconOnly }
    let kind: Kind
}

/// The styles of `Label`.
public protocol LabelStyle: Sendable {}

extension LabelStyleChoice: LabelStyle {}

extension LabelStyle where Self == LabelStyleChoice {
    public static var automatic: LabelStyleChoice { LabelStyleChoice(kind: .titleAndIcon) }
    public static var titleAndIcon: LabelStyleChoice { LabelStyleChoice(kind: .titleAndIcon) }
    public static var titleOnly: LabelStyleChoice { LabelStyleChoice(kind: .titleOnly) }
    public static var iconOnly: LabelStyleChoice { LabelStyleChoice(kind: .iconOnly) }
}

private struct LabelStyleKey: EnvironmentKey { static let defaultValue = LabelStyleChoice.Kind.titleAndIcon }

extension EnvironmentValues {
    var labelStyle: LabelStyleChoice.Kind {
        get { self[LabelStyleKey.self] }
        set { self[LabelStyleKey.self] = newValue }
    }
}

extension View {
    /// How labels inside show.
    public func labelStyle<S: LabelStyle>(_ style: S) -> ModifiedContent<Self, _PrimitiveModifier> {
        environment(\.labelStyle, (style as? LabelStyleChoice)?.kind ?? .titleAndIcon)
    }
}

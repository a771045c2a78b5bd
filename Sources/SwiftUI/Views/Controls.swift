import AppIntents
import SandglassIPC

/// A link: tapping it opens the app at `destination` (widgets in medium and larger families).
///
/// ```swift
/// Link(destination: URL(string: "scores://match/\(entry.id)")!) {
///     Text(entry.title)
/// }
/// ```
nonisolated public struct Link<Label: View>: View {
    let destination: URL
    let label: Label

    public init(destination: URL, @ViewBuilder label: () -> Label) {
        self.destination = destination
        self.label = label()
    }

    public var body: Never { primitiveBody(Self.self) }
}

extension Link where Label == Text {
    public init(_ titleKey: LocalizedStringKey, destination: URL) {
        self.init(destination: destination) { Text(titleKey) }
    }

    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, destination: URL) {
        self.init(destination: destination) { Text(title) }
    }
}

extension Link: PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] {
        var inner = context
        inner.environment.setForeground(TintShapeStyle())
        var attributes = GroupAttributes()
        attributes.url = destination.absoluteString
        return [GroupNode(attributes, child: resolveNode(label, inner))]
    }
}

/// A button that runs an app intent when tapped (iOS 17 interactive widgets): the intent's
/// `perform()` runs in the extension, then the widget reloads.
///
/// ```swift
/// Button(intent: MarkDoneIntent(taskID: task.id)) {
///     Image(systemName: task.isDone ? "checkmark.circle.fill" : "circle")
/// }
/// ```
nonisolated public struct Button<Label: View>: View {
    let intent: IntentDescriptionText
    let label: Label

    public init<I: AppIntent>(intent: I, @ViewBuilder label: () -> Label) {
        self.intent = IntentDescriptionText(intent)
        self.label = label()
    }

    public var body: Never { primitiveBody(Self.self) }
}

extension Button where Label == Text {
    public init<I: AppIntent>(_ titleKey: LocalizedStringKey, intent: I) {
        self.init(intent: intent) { Text(titleKey) }
    }

    @_disfavoredOverload
    public init<I: AppIntent, S: StringProtocol>(_ title: S, intent: I) {
        self.init(intent: intent) { Text(title) }
    }
}

extension Button: PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] {
        var inner = context
        let style = context.environment.buttonStyle
        var attributes = GroupAttributes()
        attributes.intent = intent.text
        switch style {
        case .plain:
            return [GroupNode(attributes, child: resolveNode(label, inner))]
        case .automatic, .borderless:
            inner.environment.setForeground(TintShapeStyle())
            return [GroupNode(attributes, child: resolveNode(label, inner))]
        case .bordered, .borderedProminent:
            let tint = context.environment.tintPaint ?? SystemColor.blue.paint
            if style == .borderedProminent {
                inner.environment.setForeground(Color.white)
            } else {
                inner.environment.setForeground(TintShapeStyle())
            }
            let content = PaddingNode(insets: EdgeInsets(top: 7, leading: 12, bottom: 7, trailing: 12), child: resolveNode(label, inner))
            let fill = style == .borderedProminent ? tint : tint.withOpacity(0.15)
            let background = ShapeNode(outline: .builtIn(.capsule), fill: fill)
            return [
                GroupNode(attributes, child: LayeredNode(primary: content, secondary: background, alignment: .center, isOverlay: false))
            ]
        }
    }
}

/// A switch that runs an app intent when toggled (iOS 17 interactive widgets).
///
/// ```swift
/// Toggle(isOn: entry.lightsOn, intent: ToggleLightsIntent()) {
///     Text("Lights")
/// }
/// ```
nonisolated public struct Toggle<Label: View>: View {
    let isOn: Bool
    let intent: IntentDescriptionText
    let label: Label

    public init<I: AppIntent>(isOn: Bool, intent: I, @ViewBuilder label: () -> Label) {
        self.isOn = isOn
        self.intent = IntentDescriptionText(intent)
        self.label = label()
    }

    public var body: Never { primitiveBody(Self.self) }
}

extension Toggle where Label == Text {
    public init<I: AppIntent>(_ titleKey: LocalizedStringKey, isOn: Bool, intent: I) {
        self.init(isOn: isOn, intent: intent) { Text(titleKey) }
    }

    @_disfavoredOverload
    public init<I: AppIntent, S: StringProtocol>(_ title: S, isOn: Bool, intent: I) {
        self.init(isOn: isOn, intent: intent) { Text(title) }
    }
}

extension Toggle: PrimitiveView {
    @MainActor public static func _makeNodes(_ view: Self, _ inputs: _ViewInputs) -> _ViewOutputs {
        _ViewOutputs(view.makeNodes(inputs.context))
    }

    @MainActor func makeNodes(_ context: ResolveContext) -> [LayoutNode] {
        var attributes = GroupAttributes()
        attributes.intent = intent.text
        let tint = context.environment.tintPaint ?? SystemColor.green.paint
        let label = resolveNodes(self.label, context)
        let row: LayoutNode =
            context.environment.toggleStyle == .button
            ? LayeredNode(
                primary: PaddingNode(insets: EdgeInsets(top: 7, leading: 12, bottom: 7, trailing: 12), child: LayoutNode.single(label)),
                secondary: ShapeNode(outline: .builtIn(.capsule), fill: isOn ? tint : SystemColor.fills[0].paint),
                alignment: .center, isOverlay: false)
            : StackNode(
                axis: .horizontal, alignment: 0.5, verticalAlignment: .center, spacing: nil,
                children: label + [SpacerNode(minLength: nil), SwitchNode(isOn: isOn, tint: tint)])
        return [GroupNode(attributes, child: row)]
    }
}

/// An intent as the view tree records it: its type and its parameters' values.
struct IntentDescriptionText: Sendable {
    let text: String

    init<I: AppIntent>(_ intent: I) {
        let fields = Mirror(reflecting: intent).children.compactMap { child -> String? in
            guard var name = child.label else { return nil }
            if name.hasPrefix("_") { name.removeFirst() }
            return "\(name): \(child.value)"
        }
        text = "\(I.self)(\(fields.joined(separator: ", ")))"
    }
}

/// The styles of `Button`.
public protocol PrimitiveButtonStyle: Sendable {}

/// A style of `Button` this module draws.
public struct ButtonStyleChoice: PrimitiveButtonStyle, Hashable {
    enum Kind: Sendable, Hashable { case automatic, plain, borderless, bordered, borderedProminent }
    let kind: Kind
}

extension PrimitiveButtonStyle where Self == ButtonStyleChoice {
    public static var automatic: ButtonStyleChoice { ButtonStyleChoice(kind: .automatic) }
    public static var plain: ButtonStyleChoice { ButtonStyleChoice(kind: .plain) }
    public static var borderless: ButtonStyleChoice { ButtonStyleChoice(kind: .borderless) }
    public static var bordered: ButtonStyleChoice { ButtonStyleChoice(kind: .bordered) }
    public static var borderedProminent: ButtonStyleChoice { ButtonStyleChoice(kind: .borderedProminent) }
}

/// The styles of `Toggle`.
public protocol ToggleStyle: Sendable {}

/// A style of `Toggle` this module draws.
public struct ToggleStyleChoice: ToggleStyle, Hashable {
    enum Kind: Sendable, Hashable { case automatic, `switch`, button }
    let kind: Kind
}

extension ToggleStyle where Self == ToggleStyleChoice {
    public static var automatic: ToggleStyleChoice { ToggleStyleChoice(kind: .automatic) }
    public static var `switch`: ToggleStyleChoice { ToggleStyleChoice(kind: .switch) }
    public static var button: ToggleStyleChoice { ToggleStyleChoice(kind: .button) }
}

private struct ButtonStyleKey: EnvironmentKey { static let defaultValue = ButtonStyleChoice.Kind.automatic }
private struct ToggleStyleKey: EnvironmentKey { static let defaultValue = ToggleStyleChoice.Kind.automatic }

extension EnvironmentValues {
    var buttonStyle: ButtonStyleChoice.Kind {
        get { self[ButtonStyleKey.self] }
        set { self[ButtonStyleKey.self] = newValue }
    }

    var toggleStyle: ToggleStyleChoice.Kind {
        get { self[ToggleStyleKey.self] }
        set { self[ToggleStyleKey.self] = newValue }
    }
}

extension View {
    /// How buttons inside show.
    public func buttonStyle<S: PrimitiveButtonStyle>(_ style: S) -> ModifiedContent<Self, _PrimitiveModifier> {
        environment(\.buttonStyle, (style as? ButtonStyleChoice)?.kind ?? .automatic)
    }

    /// How toggles inside show.
    public func toggleStyle<S: ToggleStyle>(_ style: S) -> ModifiedContent<Self, _PrimitiveModifier> {
        environment(\.toggleStyle, (style as? ToggleStyleChoice)?.kind ?? .automatic)
    }
}

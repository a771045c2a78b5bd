// The AppIntents of Sandglass: what a widget's interactive controls (`Button(intent:)`,
// `Toggle(isOn:intent:)`) and configuration intents are written with, as on Apple's platforms.

@_exported import Foundation

/// An action the system runs for the app: in a widget, what a button or a toggle does when
/// tapped (in the extension's process; the widget reloads after it, free of its budget).
///
/// ```swift
/// struct MarkDoneIntent: AppIntent {
///     static var title: LocalizedStringResource = "Mark done"
///     @Parameter(title: "Task") var taskID: String
///
///     init() {}
///     init(taskID: String) { self.taskID = taskID }
///
///     func perform() async throws -> some IntentResult {
///         TaskStore.shared.markDone(taskID)
///         return .result()
///     }
/// }
/// ```
public protocol AppIntent: Sendable {
    /// What the intent's `perform()` gives back.
    associatedtype PerformResult: IntentResult = IntentResultContainer

    /// The intent's name, as the system shows it.
    static var title: LocalizedStringResource { get }

    /// What the intent does, as the system shows it.
    static var description: IntentDescription? { get }

    /// An intent with its parameters at their defaults.
    init()

    /// Does what the intent is for.
    @concurrent func perform() async throws -> PerformResult
}

extension AppIntent {
    public static var description: IntentDescription? { nil }
}

extension AppIntent where PerformResult == IntentResultContainer {
    /// Does nothing: the default for intents that only carry a configuration.
    @concurrent public func perform() async throws -> IntentResultContainer { .result() }
}

/// What `perform()` returns.
public protocol IntentResult: Sendable {}

/// The result of an intent that returns nothing but having run.
public struct IntentResultContainer: IntentResult {
    init() {}
}

extension IntentResult where Self == IntentResultContainer {
    /// The result of an intent that has nothing to return.
    public static func result() -> IntentResultContainer { IntentResultContainer() }
}

/// A string the system shows, localized by the app (Sandglass shows its key).
public struct LocalizedStringResource: ExpressibleByStringInterpolation, Sendable, Hashable, CustomStringConvertible {
    /// The key.
    public let key: String

    public init(stringLiteral value: String) {
        key = value
    }

    public init(_ key: String) {
        self.key = key
    }

    public var description: String { key }
}

/// The description of an intent.
public struct IntentDescription: ExpressibleByStringInterpolation, Sendable, Hashable {
    public let text: String

    public init(stringLiteral value: String) {
        text = value
    }

    public init(_ text: LocalizedStringResource, categoryName: LocalizedStringResource? = nil) {
        self.text = text.key
    }
}

/// A parameter of an intent, declared with `@Parameter`.
@propertyWrapper
public final class IntentParameter<Value>: @unchecked Sendable, CustomStringConvertible {
    /// The parameter's name, as the system shows it.
    public let title: LocalizedStringResource
    private var value: Value?

    /// A parameter without a default (set it before `perform()` reads it).
    public init(title: LocalizedStringResource, description: LocalizedStringResource? = nil) {
        self.title = title
    }

    /// A parameter with a default.
    public init(title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: Value) {
        self.title = title
        value = defaultValue
    }

    public var wrappedValue: Value {
        get {
            guard let value else { fatalError("the parameter '\(title)' was read before it was set") }
            return value
        }
        set { value = newValue }
    }

    public var description: String { value.map { "\($0)" } ?? "nil" }
}

extension IntentParameter where Value: ExpressibleByNilLiteral {
    /// An optional parameter, `nil` until set.
    public convenience init(title: LocalizedStringResource, description: LocalizedStringResource? = nil) {
        self.init(title: title, description: description, default: nil)
    }
}

extension AppIntent {
    /// `@Parameter(title: "Name") var name: String`.
    public typealias Parameter<Value> = IntentParameter<Value>
}

/// A context a preview is shown in, such as WidgetKit's `WidgetPreviewContext(family:)`.
public protocol PreviewContext {
    /// The context's value for `key`, or the key's default value.
    subscript<Key: PreviewContextKey>(key: Key.Type) -> Key.Value { get }
}

/// A key for a value of a ``PreviewContext``.
public protocol PreviewContextKey {
    /// The type of the key's value.
    associatedtype Value

    /// The value of a context that sets none.
    static var defaultValue: Value { get }
}

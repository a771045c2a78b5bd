import SwiftUI

/// The context of a `PreviewProvider` preview of a widget's view: the family it is shown as.
///
/// ```swift
/// MyWidgetEntryView(entry: SimpleEntry(date: Date()))
///     .previewContext(WidgetPreviewContext(family: .systemSmall))
/// ```
public struct WidgetPreviewContext: PreviewContext, Sendable {
    /// The family the view is shown as.
    let family: WidgetFamily

    public init(family: WidgetFamily) {
        self.family = family
    }

    /// Each key's default value: the context sets none a view can read.
    public subscript<Key: PreviewContextKey>(key: Key.Type) -> Key.Value {
        Key.defaultValue
    }
}

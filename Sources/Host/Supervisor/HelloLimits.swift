import SandglassIPC

/// What a `hello` may declare: each kind becomes a widget instance with its own timers, and each
/// string lands in the event log, so their number and size are bounded like any other message's.
/// Far above a real extension (Apple's widget bundles hold a handful of kinds).
enum HelloLimits {
    static let kinds = 128
    static let families = 16
    static let sessionIdentifiers = 64
    /// A kind, a family or a session identifier.
    static let nameBytes = 256
    /// A display name or a description.
    static let textBytes = MessageLimits.fieldBytes

    /// `name` — a session identifier or a kind the extension sent — as the event log takes it:
    /// whole within ``nameBytes``, else cut there (no session or kind can be longer).
    static func logged(_ name: String) -> JSONValue {
        .string(MessageBudget.cut(name, to: nameBytes))
    }

    /// The bytes of kinds and families a `hello` event carries, as written: a real extension's
    /// take a few hundred.
    static let loggedBytes = 64 << 10

    /// The `kinds` and `families` fields of the `hello` event: each kind with its families while
    /// they fit in ``loggedBytes`` as the log writes them (a control character takes six bytes),
    /// and how many kinds were left out past it.
    static func loggedWidgets(_ widgets: [WidgetDescription]) -> (kinds: JSONValue, families: JSONValue, leftOut: Int) {
        var kinds: [JSONValue] = []
        var families: [(String, JSONValue)] = []
        var bytes = 0
        for widget in widgets {
            // The kind twice (in both fields), each family once, with quotes and separators.
            let cost =
                2 * (JSONValue.writtenBytes(widget.kind) + 3)
                + widget.supportedFamilies.reduce(2) { $0 + JSONValue.writtenBytes($1) + 3 }
            guard bytes + cost <= loggedBytes else { break }
            bytes += cost
            kinds.append(.string(widget.kind))
            families.append((widget.kind, .array(widget.supportedFamilies.map(JSONValue.string))))
        }
        return (.array(kinds), .object(families), widgets.count - kinds.count)
    }

    /// Why `hello` is refused, or nil when it is within the limits.
    static func refusal(of hello: Hello) -> String? {
        if hello.widgets.count > kinds { return "declared \(hello.widgets.count) widget kinds, over the limit of \(kinds)" }
        if hello.sessionIdentifiers.count > sessionIdentifiers {
            return "declared \(hello.sessionIdentifiers.count) background session identifiers, over the limit of \(sessionIdentifiers)"
        }
        for identifier in hello.sessionIdentifiers where identifier.utf8.count > nameBytes {
            return "declared a session identifier of \(identifier.utf8.count) bytes, over the limit of \(nameBytes)"
        }
        for widget in hello.widgets {
            if widget.kind.utf8.count > nameBytes {
                return "declared a widget kind of \(widget.kind.utf8.count) bytes, over the limit of \(nameBytes)"
            }
            if widget.supportedFamilies.count > families {
                return "declared \(widget.supportedFamilies.count) families for one kind, over the limit of \(families)"
            }
            if let family = widget.supportedFamilies.first(where: { $0.utf8.count > nameBytes }) {
                return "declared a family of \(family.utf8.count) bytes, over the limit of \(nameBytes)"
            }
            if max(widget.displayName.utf8.count, widget.summary.utf8.count) > textBytes {
                return "declared a display name or description over \(textBytes) bytes"
            }
        }
        return nil
    }
}

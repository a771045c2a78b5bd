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

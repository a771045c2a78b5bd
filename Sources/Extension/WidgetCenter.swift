import SandglassIPC
import Synchronization

/// Asks WidgetKit to reload the timelines of the containing app's widgets.
///
/// ```swift
/// WidgetCenter.shared.reloadTimelines(ofKind: "Leaderboard")
/// ```
///
/// A reload is a request, not a command: the host grants it under the widget's daily budget.
/// Outside the Sandglass host the calls do nothing but say so on stderr.
public final class WidgetCenter: Sendable {
    /// The shared widget center.
    public static let shared = WidgetCenter()

    private init() {}

    /// Asks for new timelines for every widget of `kind`.
    public func reloadTimelines(ofKind kind: String) {
        send(.reloadTimelines(kind: kind), describing: "reloadTimelines(ofKind: \"\(kind)\")")
    }

    /// Asks for new timelines for every widget of the containing app.
    public func reloadAllTimelines() {
        send(.reloadAllTimelines, describing: "reloadAllTimelines()")
    }

    private func send(_ message: Message, describing call: String) {
        guard let runtime = ExtensionRuntime.active else {
            Syscalls.writeStandardError("WidgetCenter.\(call): not running under the Sandglass host; nothing to reload\n")
            return
        }
        runtime.send(message)
    }
}

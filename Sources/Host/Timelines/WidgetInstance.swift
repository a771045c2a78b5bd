import SandglassIPC

/// One widget on the (simulated) screen: a kind of an extension in one family. Budgets,
/// timelines and reloads are per instance, as in WidgetKit.
public final class WidgetInstance {
    /// Why the scheduler woke an instance.
    enum Wake {
        case due
        case reloadRequested(String)
        case stopped
    }

    /// `bundle/kind/family`.
    public let id: String
    let ext: ManagedExtension
    /// The widget kind.
    public let kind: String
    /// The family name.
    public let family: String
    /// The last good timeline (kept when a reload fails or is killed).
    public internal(set) var timeline: TimelinePayload?
    /// Run time of the last reload that produced a timeline.
    public internal(set) var lastReload: UInt64?
    /// Run time of the next scheduled reload (`nil`: none, as with `.never`).
    public internal(set) var nextReload: UInt64?
    /// Timeline reloads performed.
    public internal(set) var reloads = 0
    var pendingReload: String?
    var sleeper: CheckedContinuation<Wake, Never>?
    var sleepTimer: TimerID?

    init(ext: ManagedExtension, kind: String, family: String) {
        self.ext = ext
        self.kind = kind
        self.family = family
        self.id = "\(ext.identifier)/\(kind)/\(family)"
    }

    /// The extension's bundle identifier.
    public var bundleIdentifier: String { ext.identifier }

    var context: ActivationContext {
        let size = WidgetFamilies.size(of: family)
        return ActivationContext(kind: kind, family: family, isPreview: false, displayWidth: size.width, displayHeight: size.height)
    }
}

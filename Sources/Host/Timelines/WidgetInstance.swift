import SandglassIPC

/// One widget on the (simulated) screen: a kind of an extension in one family. Budgets,
/// timelines and reloads are per instance, as in WidgetKit.
public final class WidgetInstance {
    /// Why the scheduler woke an instance.
    enum Wake {
        case due
        case request(ReloadRequest)
        case stopped
    }

    /// What a sleeping instance is waiting for; requests arriving meanwhile are handled by it.
    enum Waiting {
        /// The next reload by policy (or none): any request wakes it.
        case reload
        /// Budget until this run time: only exempt requests wake it, others are denied.
        case budget(until: UInt64)
        /// The extension failed permanently: every request is denied until failures are cleared.
        case failedExtension
    }

    /// `bundle/kind/family`.
    public let id: String
    let ext: ManagedExtension
    /// The widget kind.
    public let kind: String
    /// The family name.
    public let family: String
    /// The last good timeline (kept when a reload fails or is killed), its entries without
    /// their views (the `timeline` event has them), the first of them up to 64 KiB of their
    /// JSON and texts.
    public internal(set) var timeline: TimelinePayload?
    /// Run time of the last reload that produced a timeline.
    public internal(set) var lastReload: UInt64?
    /// Run time of the next scheduled reload (`nil`: none, as with `.never`).
    public internal(set) var nextReload: UInt64?
    /// The widget's configuration: its intent's parameters as a JSON object (UTF-8), empty for
    /// none (``ExtensionHost/setConfiguration(_:widget:)``, `--configuration`).
    public internal(set) var configuration: [UInt8] = []
    /// Timeline reloads performed.
    public internal(set) var reloads = 0
    /// The rolling 24-hour budget.
    var budget: ReloadBudget
    /// Run time of the last reload granted (charged or exempt).
    var lastRequest: UInt64?
    /// A request that arrived while a reload ran, served next.
    var pending: ReloadRequest?
    /// Its last reload failed and its extension has failed permanently: no retry until revived.
    var failedWithExtension = false
    /// The next due reload is a retry after a failure (not a policy reload).
    var retryDue = false
    var waiting: Waiting?
    var sleeper: CheckedContinuation<Wake, Never>?
    var sleepTimer: RunClock.Timer?

    init(ext: ManagedExtension, kind: String, family: String, budget: ReloadBudget) {
        self.ext = ext
        self.kind = kind
        self.family = family
        self.budget = budget
        self.id = "\(ext.identifier)/\(kind)/\(family)"
    }

    /// The extension's bundle identifier.
    public var bundleIdentifier: String { ext.identifier }

    /// The containing app's bundle identifier.
    var appIdentifier: String { ext.app.bundleIdentifier }

    var context: ActivationContext {
        let size = WidgetFamilies.size(of: family)
        return ActivationContext(kind: kind, family: family, isPreview: false, displayWidth: size.width, displayHeight: size.height)
    }

    /// Whether `name` names this widget: its `bundle/kind/family`, `bundle/kind`, kind or bundle identifier.
    func isNamed(_ name: String) -> Bool {
        name == id || name == kind || name == bundleIdentifier || name == "\(ext.identifier)/\(kind)"
    }

    /// `bundle`, `kind`, `family`: the fields that name the widget in its events.
    var fields: [(String, JSONValue)] {
        [("bundle", .string(ext.identifier)), ("kind", .string(kind)), ("family", .string(family))]
    }
}

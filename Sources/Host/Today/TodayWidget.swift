/// A Today extension's widget in the (simulated) Today view, and what the SDK reported during
/// its current update. Confined to the host's loop thread.
final class TodayWidget {
    /// What woke the widget for an update.
    enum Wake {
        case update(String)
        case stopped
    }

    /// The SDK's reports about the update in progress.
    struct Watch {
        /// The longest main-thread stall reported, in ms, and whether it was still going on.
        var mainThreadMs: Double?
        var stillBlocking = false
        var busyBeforeStart = false
        var notImplemented = false
        /// Resumed when the final `mainThreadBlocked` report arrives.
        var finalReport: CheckedContinuation<Void, Never>?
    }

    let ext: ManagedExtension
    var sleeper: CheckedContinuation<Wake, Never>?
    var timer: RunClock.Timer?
    var pending: String?
    var watch: Watch?
    /// Updates asked for so far.
    var updates = 0
    /// Run time of the last update.
    var lastUpdate: UInt64 = 0

    init(ext: ManagedExtension) {
        self.ext = ext
    }

    var identifier: String { ext.identifier }
}

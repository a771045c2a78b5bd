import Synchronization

/// When the delegate call for a background event began, on CLOCK_MONOTONIC — the clock the host
/// shares — reported with `eventHandled` so that the host can time "download complete →
/// `didFinishDownloadingTo`" to the instant the extension's code was entered.
final class DelegateCallStart: Sendable {
    private let started = Mutex<UInt64>(0)

    /// Marks now, right before the delegate method is called (on the delegate queue).
    func mark() {
        let now = Syscalls.monotonicNanoseconds()
        started.withLock { $0 = now }
    }

    /// The instant marked, 0 when no delegate call was made.
    var nanoseconds: UInt64 { started.withLock { $0 } }
}

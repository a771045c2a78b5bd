import CSandbox
import Foundation

/// The page through which extensions read the virtual clock: a small file in the host's data
/// directory, mapped shared by the host (read-write) and by `libsandglass-clock.so` in every
/// extension (read-only). The host publishes the run clock's ``RunClock/realtimeOffset`` at
/// creation and after every jump; the shim answers `clock_gettime(CLOCK_REALTIME)`,
/// `gettimeofday`, `time` and `timespec_get` with CLOCK_MONOTONIC + that offset.
/// Confined to the host's loop thread.
final class ClockPage {
    /// The file extensions map (`SANDGLASS_CLOCK_PAGE`).
    let path: String
    private var page: UnsafeMutablePointer<sg_clock_page>?

    /// Creates the page at `path` with `offset`.
    init(path: String, offset: Int64) throws {
        self.path = path
        guard let page = sg_clock_page_create(path, offset) else {
            throw HostSetupError(description: "could not create the virtual clock's page \(path): \(String(cString: strerror(errno)))")
        }
        self.page = page
    }

    /// Stores a new offset (after a jump of the virtual clock).
    func publish(_ offset: Int64) {
        if let page { sg_clock_page_publish(page, offset) }
    }

    /// Unmaps the page (extensions that still map it keep the last offset).
    func close() {
        if let page { sg_clock_page_close(page) }
        page = nil
    }

    deinit { close() }
}

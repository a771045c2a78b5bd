extension RunClock {
    /// A hold on the virtual clock (``RunClock/holdBusy()``, ``RunClock/holdNetwork()``,
    /// ``RunClock/holdForServer()``), given back exactly once: by ``release()``, or when the last
    /// reference to it goes — so a hold can be neither given back twice nor kept by forgetting it.
    ///
    /// ```swift
    /// let busy = clock.holdBusy()
    /// defer { busy.release() }
    /// ```
    ///
    /// A class rather than a `~Copyable` struct: holds live in dictionaries and in copyable
    /// records (an activation's pending entry, a download's attempt). Confined to the host's
    /// loop thread, as its clock is.
    final class Hold {
        private var end: (() -> Void)?

        init(_ end: @escaping () -> Void) {
            self.end = end
        }

        /// Whether the hold was given back.
        var isReleased: Bool { end == nil }

        /// Gives the hold back (once; later calls do nothing).
        func release() {
            let end = self.end
            self.end = nil
            end?()
        }

        deinit { release() }
    }
}

/// One widget instance's reload budget: at most `limit` charged reloads in any rolling window
/// of `window` (24 hours) on the run clock. A charge at run time c counts until c + window.
/// A value, kept by the instance; the decisions are recorded in the event log (the ledger).
struct ReloadBudget {
    /// Charged reloads allowed per window.
    let limit: Int
    /// The window, in nanoseconds of run time.
    let window: UInt64
    /// Run times of the charges still in the window, oldest first.
    private(set) var charges: [UInt64] = []

    init(limit: Int, window: Duration = .seconds(86_400)) {
        self.limit = max(0, limit)
        self.window = window.nanoseconds
    }

    /// Drops charges that left the window by `now`.
    mutating func expire(at now: UInt64) {
        let cut = charges.firstIndex { $0 + window > now } ?? charges.count
        if cut > 0 { charges.removeFirst(cut) }
    }

    /// Charges in the window ending at `now`.
    func used(at now: UInt64) -> Int {
        charges.reduce(0) { $1 + window > now ? $0 + 1 : $0 }
    }

    /// Charges still allowed at `now`.
    func remaining(at now: UInt64) -> Int { max(0, limit - used(at: now)) }

    /// The earliest run time at which a charge is allowed (`now` when one is).
    func availableAt(_ now: UInt64) -> UInt64 {
        let live = charges.filter { $0 + window > now }
        guard live.count >= limit else { return now }
        // Enough charges must leave the window to bring the count under the limit.
        guard limit > 0 else { return .max }
        return live[live.count - limit] + window
    }

    /// Records a charge at `now`.
    mutating func charge(at now: UInt64) {
        expire(at: now)
        charges.append(now)
    }
}

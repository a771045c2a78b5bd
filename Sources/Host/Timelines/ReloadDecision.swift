/// A request for a widget's reload: why, and who asked.
struct ReloadRequest: Equatable {
    var reason: ReloadReason
    /// `extension` (its WidgetCenter), `app` (the containing app's WidgetCenter), `system`, or `host` (the API).
    var origin: String

    /// The request to keep when `other` arrives while this one waits: an exempt request wins.
    func merged(with other: ReloadRequest) -> ReloadRequest {
        if reason.inherentExemption == nil && other.reason.inherentExemption != nil { return other }
        return self
    }
}

/// What the system decides about a reload request under the budget of Apple's "Keeping a widget up to date".
enum ReloadDecision: Equatable {
    /// The reload goes ahead and counts against the budget; `remaining` after it.
    case charged(remaining: Int)
    /// The reload goes ahead for free.
    case exempt(BudgetExemption, remaining: Int)
    /// No budget left: withheld until run time `until`; `used` charges in the window.
    case denied(until: UInt64, used: Int)

    /// Decides `reason` for a widget with `budget` at `now`, given the exemption the app's state
    /// grants (`appExemption`) and whether limits are lifted (`debug`).
    static func decide(
        _ reason: ReloadReason, budget: ReloadBudget, now: UInt64,
        appExemption: BudgetExemption?, debug: Bool
    ) -> ReloadDecision {
        let remaining = budget.remaining(at: now)
        if debug { return .exempt(.debugReloads, remaining: remaining) }
        if let exemption = reason.inherentExemption ?? appExemption { return .exempt(exemption, remaining: remaining) }
        guard remaining > 0 else { return .denied(until: budget.availableAt(now), used: budget.used(at: now)) }
        return .charged(remaining: remaining - 1)
    }
}

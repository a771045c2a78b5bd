import Testing

@testable import SandglassHost

private let hour: UInt64 = 3_600_000_000_000
private let day = 24 * hour

@Suite("Reload budget")
struct ReloadBudgetTests {
    @Test("a rolling 24-hour window: the 61st reload waits until the oldest charge leaves it")
    func rollingWindow() {
        var budget = ReloadBudget(limit: 60)
        for i in 0..<60 { budget.charge(at: UInt64(i) * 5 * 60_000_000_000) } // every 5 min from 0
        let now = 6 * hour
        #expect(budget.used(at: now) == 60)
        #expect(budget.remaining(at: now) == 0)
        #expect(budget.availableAt(now) == day, "the first charge (at 0) leaves the window at 24 h")
        #expect(budget.remaining(at: day - 1) == 0)
        #expect(budget.remaining(at: day) == 1, "a charge counts until c + 24 h, not at it")
        #expect(budget.remaining(at: day + 5 * 60_000_000_000) == 2)
    }

    @Test("decisions: charged while budget lasts, then denied until it frees; exemptions never charge")
    func decisions() {
        var budget = ReloadBudget(limit: 2)
        #expect(ReloadDecision.decide(.policy, budget: budget, now: 0, appExemption: nil, debug: false) == .charged(remaining: 1))
        budget.charge(at: 0)
        budget.charge(at: hour)
        #expect(
            ReloadDecision.decide(.reloadTimelines, budget: budget, now: 2 * hour, appExemption: nil, debug: false)
                == .denied(until: day, used: 2))
        #expect(
            ReloadDecision.decide(.reloadTimelines, budget: budget, now: 2 * hour, appExemption: .appForeground, debug: false)
                == .exempt(.appForeground, remaining: 0))
        #expect(
            ReloadDecision.decide(.appIntent, budget: budget, now: 2 * hour, appExemption: nil, debug: false)
                == .exempt(.appIntent, remaining: 0))
        #expect(
            ReloadDecision.decide(.localeChange, budget: budget, now: 2 * hour, appExemption: nil, debug: false)
                == .exempt(.systemChange, remaining: 0))
        #expect(
            ReloadDecision.decide(.significantLocationChange, budget: budget, now: 2 * hour, appExemption: nil, debug: false)
                == .exempt(.significantLocationChange, remaining: 0))
        #expect(
            ReloadDecision.decide(.policy, budget: budget, now: 2 * hour, appExemption: nil, debug: true)
                == .exempt(.debugReloads, remaining: 0))
        #expect(
            ReloadDecision.decide(.initial, budget: budget, now: 2 * hour, appExemption: nil, debug: false)
                == .exempt(.widgetAdded, remaining: 0))
        #expect(ReloadDecision.decide(.retry, budget: budget, now: day, appExemption: nil, debug: false) == .charged(remaining: 0))
    }

    @Test("the app's activities: foreground, audio and navigation sessions each exempt its widgets")
    func appActivities() {
        let system = SystemState(visibility: .always)
        #expect(system.exemption(forApp: "com.example.app") == nil)
        let started = system.set(.navigationSession, true, app: "com.example.app")
        #expect(started)
        #expect(system.exemption(forApp: "com.example.app") == .navigationSession)
        let foreground = system.set(.foreground, true, app: "com.example.app")
        #expect(foreground)
        #expect(system.exemption(forApp: "com.example.app") == .appForeground)
        let again = system.set(.foreground, true, app: "com.example.app")
        #expect(!again, "no change")
        #expect(system.exemption(forApp: "com.example.other") == nil)
    }

    @Test("a waiting request keeps its place unless an exempt one arrives")
    func merging() {
        let policy = ReloadRequest(reason: .policy, origin: "system")
        let center = ReloadRequest(reason: .reloadTimelines, origin: "extension")
        let intent = ReloadRequest(reason: .appIntent, origin: "host")
        #expect(policy.merged(with: center) == policy)
        #expect(policy.merged(with: intent) == intent)
        #expect(intent.merged(with: center) == intent)
    }

    @Test("the system's date for a single-entry .atEnd timeline scales with visibility")
    func systemChosen() {
        #expect(SystemChosenReload.interval(for: .always) == .seconds(900))
        #expect(SystemChosenReload.interval(for: .often) == .seconds(1800))
        #expect(SystemChosenReload.interval(for: .seldom) == .seconds(3600))
        #expect(SystemChosenReload.applies(entryCount: 1))
        #expect(!SystemChosenReload.applies(entryCount: 2))
    }

    @Test("the audit counts charges in half-open 24-hour windows, to the microsecond")
    func audit() {
        let w = 86_400_000.0
        #expect(ReloadAudit.maximumInAnyWindow([0, 1, 2], windowMs: w).count == 3)
        #expect(ReloadAudit.maximumInAnyWindow([54.179, 54.179 + w], windowMs: w).count == 1, "exactly 24 h apart")
        #expect(ReloadAudit.maximumInAnyWindow([54.179, 54.178 + w], windowMs: w).count == 2)
        let events = (0..<3).map { i in
            HostEvent(
                t: Double(i) * 1000, name: "reload.requested",
                fields: [
                    ("bundle", "b"), ("kind", "K"), ("family", "systemSmall"), ("reason", "policy"), ("charged", true), ("limit", 2)
                ])
        }
        let violations = ReloadAudit.budgetViolations(in: events)
        #expect(violations.count == 1)
        #expect(violations.first?.count == 3)
        #expect(violations.first?.description.contains("its budget is 2") == true)
    }
}

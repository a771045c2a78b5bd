import Testing

@testable import SandglassHost

/// A bundle's `SandglassLimits` lower its budgets and never raise them.
@Suite("Budget ceiling")
struct BudgetCeilingTests {
    @Test("asking for more is capped at the ceiling and reported; asking for less is granted")
    func capped() {
        var asked = LimitOverrides()
        asked.memoryBytes = 100_000 << 20
        asked.timeline = .seconds(1_000_000_000)
        asked.idle = .seconds(2)
        asked.containerBytes = 1 << 20
        let ceiling = Budgets.defaults(for: .widgetKit)
        let (budgets, caps) = asked.capped(by: ceiling)
        #expect(budgets.memoryBytes == 30 << 20)
        #expect(budgets.timeline == .seconds(30))
        #expect(budgets.idle == .seconds(2))
        #expect(budgets.containerBytes == 1 << 20)
        #expect(budgets.snapshot == ceiling.snapshot)
        #expect(
            caps == [
                BudgetCap(key: "TimelineSeconds", asked: 1e9, granted: 30),
                BudgetCap(key: "MemoryMiB", asked: 100_000, granted: 30)
            ])
    }

    @Test("the operator's budgets are the ceiling: higher than the defaults, a bundle may ask for up to them")
    func operatorCeiling() {
        var operatorBudgets = LimitOverrides()
        operatorBudgets.memoryBytes = 64 << 20
        let ceiling = operatorBudgets.applied(to: .defaults(for: .today))
        var asked = LimitOverrides()
        asked.memoryBytes = 48 << 20
        #expect(asked.capped(by: ceiling).budgets.memoryBytes == 48 << 20)
        #expect(asked.capped(by: ceiling).caps.isEmpty)
        #expect(LimitOverrides().capped(by: ceiling).budgets.memoryBytes == 64 << 20)
    }

}

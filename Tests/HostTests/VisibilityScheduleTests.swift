import Testing

@testable import SandglassHost

/// When the widgets are on screen, by schedule.
@Suite("Visibility schedules")
struct VisibilityScheduleTests {
    private let minute: UInt64 = 60_000_000_000

    @Test("often: viewed at once, for 2 minutes, every 30 minutes")
    func often() {
        let often = VisibilitySchedule.often
        #expect(often.isVisible(at: 0))
        #expect(often.isVisible(at: 2 * minute - 1))
        #expect(!often.isVisible(at: 2 * minute))
        #expect(often.nextChange(after: 0) == 2 * minute)
        #expect(often.nextChange(after: 2 * minute) == 30 * minute)
        #expect(often.isVisible(at: 31 * minute))
        #expect(often.description == "often")
    }

    @Test("seldom: a minute every 8 hours; always and never do not change")
    func others() {
        #expect(VisibilitySchedule.seldom.isVisible(at: 8 * 60 * minute))
        #expect(!VisibilitySchedule.seldom.isVisible(at: 60 * minute))
        #expect(VisibilitySchedule.seldom.nextChange(after: 60 * minute) == 8 * 60 * minute)
        #expect(VisibilitySchedule.always.isVisible(at: 12_345) && VisibilitySchedule.always.nextChange(after: 0) == nil)
        #expect(!VisibilitySchedule.never.isVisible(at: 0) && VisibilitySchedule.never.nextChange(after: 0) == nil)
    }

    @Test("names, and a custom schedule described in units")
    func names() {
        #expect(VisibilitySchedule.names.compactMap(VisibilitySchedule.init(name:)) == [.always, .never, .often, .seldom])
        #expect(VisibilitySchedule(name: "sometimes") == nil)
        #expect(VisibilitySchedule.periodic(every: .seconds(5400), for: .seconds(90)).description == "every 1h30m for 1m30s")
    }
}

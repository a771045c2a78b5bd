import SandglassIPC
import Testing

/// The dates that change as time passes, in the formats of Apple's "Displaying dynamic dates
/// in widgets".
@Suite("Dynamic dates")
struct DynamicTextTests {
    let now = 1_750_000_000.0

    @Test("relative, offset and timer, as Apple's example shows a date 11 min 14 s ahead")
    func appleExample() {
        let date = now + 11 * 60 + 14
        #expect(DynamicText(style: .relative, date: date).text(at: now) == "11 min, 14 sec")
        #expect(DynamicText(style: .offset, date: date).text(at: now) == "-11 minutes")
        #expect(DynamicText(style: .timer, date: date).text(at: now) == "11:14")
    }

    @Test("larger units and the past")
    func units() {
        #expect(DynamicText(style: .relative, date: now - 2 * 3600 - 23 * 60).text(at: now) == "2 hr, 23 min")
        #expect(DynamicText(style: .relative, date: now + 86_400 + 3600).text(at: now) == "1 day, 1 hr")
        #expect(DynamicText(style: .offset, date: now - 7200).text(at: now) == "+2 hours")
        #expect(DynamicText(style: .timer, date: now - 3723).text(at: now) == "1:02:03")
    }

    @Test("timerInterval counts down within its interval, stops at a pause, and hides hours when asked")
    func interval() {
        let timer = DynamicText(style: .timerInterval, date: now, end: now + 5400)
        #expect(timer.text(at: now + 60) == "1:29:00")
        #expect(timer.text(at: now + 9999) == "0:00")
        #expect(DynamicText(style: .timerInterval, date: now, end: now + 5400, showsHours: false).text(at: now) == "90:00")
        #expect(
            DynamicText(style: .timerInterval, date: now, end: now + 600, countsDown: false, pauseTime: now + 30).text(at: now + 300)
                == "0:30")
        #expect(abs(timer.fraction(at: now + 2700) - 0.5) < 1e-9)
    }
}

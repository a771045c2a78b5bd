/// The widgets' screen during a run: follows the ``VisibilitySchedule`` on the run clock,
/// records when the widgets were last visible, and tells the parts that care when they appear
/// or disappear (`widgets.visible`, `widgets.hidden`). Confined to the host's loop thread.
final class Screen {
    private let clock: RunClock
    private let log: EventLog
    private(set) var schedule: VisibilitySchedule
    private var origin: UInt64 = 0
    private var timer: TimerID?
    private var started = false
    /// Whether the widgets are on screen now.
    private(set) var isVisible = false
    /// Run time when the widgets were last seen: the end of the last view (`nil`: never seen).
    private var lastHidden: UInt64?
    private var observers: [(Bool) -> Void] = []

    init(schedule: VisibilitySchedule, clock: RunClock, log: EventLog) {
        self.schedule = schedule
        self.clock = clock
        self.log = log
    }

    /// Calls `observer` with `true` when the widgets appear and `false` when they disappear.
    func observe(_ observer: @escaping (Bool) -> Void) {
        observers.append(observer)
    }

    /// Starts following the schedule now.
    func start() {
        guard !started else { return }
        started = true
        origin = clock.now
        apply(reason: "start")
    }

    /// Replaces the schedule from now on.
    func change(to schedule: VisibilitySchedule) {
        self.schedule = schedule
        guard started else { return }
        origin = clock.now
        apply(reason: "change")
    }

    /// Nanoseconds since the widgets were last visible: 0 while visible, `nil` if never seen.
    func sinceVisible(at now: UInt64) -> UInt64? {
        if isVisible { return 0 }
        return lastHidden.map { now >= $0 ? now - $0 : 0 }
    }

    func stop() {
        if let timer { clock.cancel(timer) }
        timer = nil
        observers.removeAll()
    }

    /// Sets visibility for now; on start and on a change of schedule the state is always
    /// recorded, on the schedule's own turns only when it changes.
    private func apply(reason: String) {
        let now = clock.now
        let visible = schedule.isVisible(at: now - origin)
        let next = schedule.nextChange(after: now - origin).map { origin + $0 }
        let changed = visible != isVisible
        if isVisible && !visible { lastHidden = now }
        isVisible = visible
        if changed || reason != "schedule" {
            var fields: [(String, JSONValue)] = [("schedule", .string(schedule.description))]
            if let next {
                fields += [
                    (visible ? "until" : "nextView", .double(Double(next) / 1e6)),
                    (visible ? "untilDate" : "nextViewDate", .string(iso8601(clock.date(at: next))))
                ]
            }
            log.emit(visible ? .widgetsVisible : .widgetsHidden, fields)
        }
        if changed { for observer in observers { observer(visible) } }
        if let timer { clock.cancel(timer) }
        timer = next.map { at in
            clock.schedule(at: at) { [unowned self] in
                self.timer = nil
                self.apply(reason: "schedule")
            }
        }
    }
}

import CSandbox
import Foundation
import SandglassIPC

/// When the Today widgets are visible it asks each Today extension to update
/// (`widgetPerformUpdate`), as Notification Center does, and judges the result: a completion
/// never called within the `performUpdate` budget (10 s) is a kill and a failed update; a main
/// thread blocked by the call (reported by the SDK's watchdog) has its own verdict; a
/// completion called twice is misuse, and the first result counts. Every result goes to the
/// log as `update.result`. Confined to the host's loop thread.
///
/// Updates come when the widget is added, each time the widgets become visible, every
/// ``visibleInterval`` while they stay visible, and every ``backgroundInterval`` while they
/// are not ("both when Notification Center is visible, as well as in the background").
final class TodayScheduler {
    /// While visible, another update after this long (15 min).
    var visibleInterval: Duration = .seconds(15 * 60)
    /// While not visible, a background update after this long (2 h).
    var backgroundInterval: Duration = .seconds(2 * 3600)
    /// How long to wait (real time) after the result for the SDK's final main-thread report.
    var finalReportWait: Duration = .seconds(1)

    private let supervisor: Supervisor
    private let clock: RunClock
    private let log: EventLog
    private let screen: Screen
    private(set) var widgets: [TodayWidget] = []
    private var stopped = false

    init(supervisor: Supervisor, clock: RunClock, log: EventLog, screen: Screen) {
        self.supervisor = supervisor
        self.clock = clock
        self.log = log
        self.screen = screen
        screen.observe { [unowned self] visible in
            for widget in self.widgets {
                if visible {
                    self.wake(widget, .update("visible"))
                } else if widget.sleeper != nil {
                    self.arm(widget)
                }
            }
        }
    }

    /// Puts the Today extension's widget in the Today view.
    func add(_ ext: ManagedExtension) -> TodayWidget {
        clock.assertInLoop()
        if let existing = widgets.first(where: { $0.ext === ext }) { return existing }
        let widget = TodayWidget(ext: ext)
        widgets.append(widget)
        log.emit(
            .widgetAdded,
            [
                ("bundle", .string(ext.identifier)), ("kind", "Today"), ("family", "today"),
                ("principalClass", .string(ext.bundle.principalClass ?? ""))
            ])
        return widget
    }

    /// Runs `widget` until the scheduler stops: an update when added, then as visibility says.
    func run(_ widget: TodayWidget) async {
        clock.assertInLoop()
        var reason = "added"
        while !stopped {
            await update(widget, reason: reason)
            switch await sleep(widget) {
            case .stopped: return
            case .update(let why): reason = why
            }
        }
    }

    // MARK: one update

    private func update(_ widget: TodayWidget, reason: String) async {
        widget.updates += 1
        widget.lastUpdate = clock.now
        let ext = widget.ext
        log.emit(
            .updateRequested,
            [
                ("bundle", .string(ext.identifier)), ("reason", .string(reason)),
                ("visible", .bool(screen.isVisible))
            ])
        let process: ExtensionProcess
        switch await supervisor.ensureRunning(ext) {
        case .success(let p): process = p
        case .failure(let failure):
            record(
                widget, pid: nil, reason: reason, result: .failed, verdict: .launchFailed,
                detail: "the extension could not be launched: \(failure)")
            return
        }
        let pid = process.pid
        widget.watch = TodayWidget.Watch()
        let outcome = await supervisor.activate(ext, .performUpdate)
        if widget.watch?.stillBlocking == true, case .updateResult = outcome, process.state != .exiting {
            await waitForFinalReport(widget, process: process)
        }
        let watch = widget.watch ?? TodayWidget.Watch()
        widget.watch = nil
        let budget = format(ext.budgets.performUpdate)
        switch outcome {
        case .updateResult(let code):
            if let ms = watch.mainThreadMs {
                let how = watch.stillBlocking ? "for at least \(Int(ms.rounded())) ms" : "for \(Int(ms.rounded())) ms"
                record(
                    widget, pid: pid, reason: reason, result: code, verdict: .mainThreadBlocked, blockedMs: ms,
                    detail:
                        "widgetPerformUpdate blocked the main thread \(how) (it answered .\(code)); do the work off the main thread and call the completion handler when it is done"
                )
            } else if watch.notImplemented {
                record(
                    widget, pid: pid, reason: reason, result: code, verdict: .notImplemented,
                    detail: "the principal class does not implement widgetPerformUpdate, so the widget cannot update")
            } else if code == .failed {
                record(
                    widget, pid: pid, reason: reason, result: code, verdict: .extensionReportedFailure,
                    detail: "the extension called its completion handler with .failed")
            } else {
                record(
                    widget, pid: pid, reason: reason, result: code, verdict: .completed,
                    detail: "the completion handler was called with .\(code)")
            }
        case .killed(.timeBudget):
            if let ms = watch.mainThreadMs, watch.stillBlocking || watch.busyBeforeStart {
                let what =
                    watch.busyBeforeStart
                    ? "the main thread was busy, so widgetPerformUpdate had not even started (reported after \(Int(ms.rounded())) ms)"
                    : "widgetPerformUpdate was still blocking the main thread (reported blocking after \(Int(ms.rounded())) ms)"
                record(
                    widget, pid: pid, reason: reason, result: .failed, verdict: .mainThreadBlocked, blockedMs: ms,
                    detail: "\(what) when the \(budget) budget ran out: the extension was killed and the update recorded as failed")
            } else {
                record(
                    widget, pid: pid, reason: reason, result: .failed, verdict: .completionNeverCalled,
                    detail:
                        "the completion handler was never called within the \(budget) budget: the extension was killed and the update recorded as failed"
                )
            }
        case .killed(let why):
            record(
                widget, pid: pid, reason: reason, result: .failed, verdict: .extensionDied,
                detail: "the extension was killed (\(why.rawValue)) before it called its completion handler")
        case .failed(let why):
            record(
                widget, pid: pid, reason: reason, result: .failed, verdict: .extensionDied,
                detail: "the update failed: \(why)")
        case .entry, .timeline, .eventsFinished, .declined:
            record(
                widget, pid: pid, reason: reason, result: .failed, verdict: .extensionDied,
                detail: "the extension answered performUpdate with something else")
        }
    }

    private func record(
        _ widget: TodayWidget, pid: Int32?, reason: String, result: UpdateResultCode, verdict: UpdateVerdict,
        blockedMs: Double? = nil, detail: String
    ) {
        var fields: [(String, JSONValue)] = [("bundle", .string(widget.identifier))]
        if let pid { fields.append(("pid", .int(Int64(pid)))) }
        fields += [("result", .string("\(result)")), ("verdict", .string(verdict.rawValue)), ("reason", .string(reason))]
        if let blockedMs { fields.append(("mainThreadBlockedMs", .double((blockedMs * 1000).rounded() / 1000))) }
        fields.append(("detail", .string(detail)))
        log.emit(.updateResult, fields)
    }

    /// The call answered while still blocking the main thread: wait a moment (real time) for
    /// the SDK's report of how long it blocked in all.
    private func waitForFinalReport(_ widget: TodayWidget, process: ExtensionProcess) async {
        let busy = clock.holdBusy()
        defer { busy.release() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            widget.watch?.finalReport = continuation
            _ = supervisor.loop.schedule(at: sg_monotonic_ns() + finalReportWait.nanoseconds) { [weak widget] in
                guard let widget, let waiting = widget.watch?.finalReport else { return }
                widget.watch?.finalReport = nil
                waiting.resume()
            }
        }
    }

    // MARK: the SDK's reports

    /// A diagnostic from a Today extension's SDK: recorded as an event, and kept for the verdict
    /// of the update in progress.
    func diagnostic(_ report: DiagnosticReport, from process: ExtensionProcess, of ext: ManagedExtension) {
        clock.assertInLoop()
        var fields: [(String, JSONValue)] = [("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid)))]
        // The activation it names, when the host issued that id to this process, lately (the id
        // is the extension's to choose; a report may come after its activation ended).
        if let id = report.requestID, process.recentRequests.contains(id) { fields.append(("activation", .int(Int64(id.rawValue)))) }
        let widget = widgets.first { $0.ext === ext }
        switch report.code {
        case .mainThreadBusy, .mainThreadBlocking, .mainThreadBlocked:
            let state =
                switch report.code {
                case .mainThreadBusy: "busy"
                case .mainThreadBlocking: "blocking"
                default: "blocked"
                }
            // Any double the extension sent, made a duration the log and the verdict can hold.
            let milliseconds = report.milliseconds.isNaN ? 0 : min(max(report.milliseconds, 0), 1e12)
            fields += [
                ("state", .string(state)), ("ms", .double(milliseconds)),
                ("detail", .string(MessageLimits.field(report.message)))
            ]
            log.emit(.mainThreadBlocked, fields)
            if var watch = widget?.watch {
                watch.mainThreadMs = max(watch.mainThreadMs ?? 0, milliseconds)
                watch.stillBlocking = report.code != .mainThreadBlocked
                if report.code == .mainThreadBusy { watch.busyBeforeStart = true }
                if report.code == .mainThreadBlocked, let waiting = watch.finalReport {
                    watch.finalReport = nil
                    widget?.watch = watch
                    waiting.resume()
                    return
                }
                widget?.watch = watch
            }
        case .completionCalledTwice:
            fields += [
                ("misuse", "completionCalledTwice"),
                ("detail", .string(MessageLimits.field(report.message)))
            ]
            log.emit(.updateMisuse, fields)
        case .performUpdateNotImplemented:
            fields += [
                ("misuse", "notImplemented"), ("detail", .string(MessageLimits.field(report.message)))
            ]
            log.emit(.updateMisuse, fields)
            widget?.watch?.notImplemented = true
        }
    }

    // MARK: waiting

    private func sleep(_ widget: TodayWidget) async -> TodayWidget.Wake {
        if stopped { return .stopped }
        if let pending = widget.pending {
            widget.pending = nil
            return .update(pending)
        }
        return await withCheckedContinuation { continuation in
            widget.sleeper = continuation
            arm(widget)
        }
    }

    /// Sets the sleeping widget's timer: the next update comes ``visibleInterval`` after the last
    /// while the widgets are visible, ``backgroundInterval`` after it while they are not.
    private func arm(_ widget: TodayWidget) {
        if let timer = widget.timer { clock.cancel(timer) }
        let interval = screen.isVisible ? visibleInterval : backgroundInterval
        let at = max(clock.now, widget.lastUpdate + interval.nanoseconds)
        widget.timer = clock.schedule(at: at) { [unowned self, unowned widget] in
            widget.timer = nil
            self.wake(widget, .update(self.screen.isVisible ? "visible" : "background"))
        }
    }

    private func wake(_ widget: TodayWidget, _ reason: TodayWidget.Wake) {
        guard let sleeper = widget.sleeper else {
            if case .update(let why) = reason, widget.pending == nil { widget.pending = why }
            return
        }
        widget.sleeper = nil
        if let timer = widget.timer {
            clock.cancel(timer)
            widget.timer = nil
        }
        sleeper.resume(returning: reason)
    }

    /// Wakes every widget with `.stopped`; their tasks end.
    func stop() {
        clock.assertInLoop()
        stopped = true
        for widget in widgets {
            widget.pending = nil
            wake(widget, .stopped)
            if let waiting = widget.watch?.finalReport {
                widget.watch?.finalReport = nil
                waiting.resume()
            }
        }
    }
}

import Foundation
import SandglassIPC

/// Adds widget instances for the kinds an extension declares and keeps each one's timeline:
/// placeholder, snapshot and timeline when it appears, then reloads by its policy, by
/// WidgetCenter, app intents and system changes — each one decided against the widget's reload
/// budget and recorded in the event log (the ledger): `reload.requested` (charged or exempt, and
/// why), `reload.denied` (and until when), `reload.coalesced`, `reload.failed`, `timeline`.
/// Everything here is on the run clock. Confined to the host's loop thread.
final class TimelineScheduler {
    /// The minimum spacing WidgetKit imposes between reloads ("at least about 5 minutes").
    var minimumSpacing: Duration = .seconds(300)
    /// With limits lifted (`debugReloads`), the spacing is this instead, for every reload (so that
    /// `.after(now)` or a WidgetCenter request from every getTimeline cannot spin).
    var debugMinimumSpacing: Duration = .seconds(1)
    /// After a failed reload that did not end the extension's process, the next attempt comes this
    /// much later; after one that did, it waits for the extension's backoff.
    var retryDelay: Duration = .seconds(300)
    /// Lift the budget and the minimum spacing, as Xcode's debugger does.
    var debugReloads = false
    /// The window of the reload budget.
    var budgetWindow: Duration = .seconds(86_400)
    /// The configurations widgets carry when they are added, by widget name (the most specific
    /// name that matches wins: `bundle/kind/family`, `bundle/kind`, then kind or bundle).
    var configurations: [String: String] = [:]

    let system: SystemState
    private let supervisor: Supervisor
    private let clock: RunClock
    private let log: EventLog
    private(set) var instances: [WidgetInstance] = []
    private var stopped = false

    init(supervisor: Supervisor, clock: RunClock, log: EventLog, system: SystemState) {
        self.supervisor = supervisor
        self.clock = clock
        self.log = log
        self.system = system
    }

    /// One instance per kind the extension declares, in its first supported family. Kinds of
    /// every launch count together: an extension that declares new ones in each launch keeps at
    /// most ``HelloLimits/kinds`` widgets (each has its own timers, activations and log), the
    /// rest recorded as capped.
    func addInstances(for ext: ManagedExtension, hello: Hello) -> [WidgetInstance] {
        clock.assertInLoop()
        var added: [WidgetInstance] = []
        var known = Set(instances.lazy.filter { $0.ext === ext }.map(\.kind))
        let new = Set(hello.widgets.map(\.kind)).subtracting(known).count
        if known.count + new > HelloLimits.kinds {
            log.emit(
                .limitsCapped,
                [
                    ("bundle", .string(ext.identifier)), ("key", "widgetKinds"), ("asked", .double(Double(known.count + new))),
                    ("granted", .double(Double(HelloLimits.kinds))),
                    (
                        "detail",
                        .string(
                            "its launches declared \(known.count + new) widget kinds in all, over the \(HelloLimits.kinds) the host keeps of an extension; the kinds past them are not added"
                        )
                    )
                ])
        }
        for widget in hello.widgets where known.count < HelloLimits.kinds && known.insert(widget.kind).inserted {
            let family = widget.supportedFamilies.first ?? "systemSmall"
            let budget = ReloadBudget(limit: ext.budgets.reloadsPerDay, window: budgetWindow)
            let instance = WidgetInstance(ext: ext, kind: widget.kind, family: family, budget: budget)
            let named = configurations.filter { instance.isNamed($0.key) }
                .sorted { ($0.key.split(separator: "/").count, $0.key) > ($1.key.split(separator: "/").count, $1.key) }.first
            instance.configuration = named.map { Array($0.value.utf8) } ?? []
            instances.append(instance)
            added.append(instance)
            log.emit(.widgetAdded, instance.fields + [("reloadsPerDay", .int(Int64(budget.limit)))])
        }
        return added
    }

    // MARK: requests

    /// Whether an event a request of the extension caused may be written: its bytes charged
    /// to the requesting process's log budget (past it, left out and counted).
    typealias EventAdmission = (EventName, [(String, JSONValue)]) -> Bool

    /// A reload asked for by the extension (`WidgetCenter`): `kind` nil means all its widgets.
    /// One request reaches up to 128 widgets: the events it causes for each (coalesced, denied)
    /// are the extension's to pay for, through `admit`.
    func requestReload(from ext: ManagedExtension, kind: String?, admit: EventAdmission = { _, _ in true }) {
        clock.assertInLoop()
        let targets = instances.filter { $0.ext === ext && (kind == nil || $0.kind == kind) }
        if targets.isEmpty {
            // A kind no widget has is the extension's string: cut, as a logger's name is.
            let named = MessageBudget.cut(kind ?? "*", to: MessageLimits.loggerNameBytes)
            let fields: [(String, JSONValue)] = [
                ("bundle", .string(ext.identifier)), ("kind", .string(named)),
                ("reason", "noSuchWidget"), ("detail", .string("no widget of kind \(named) is on screen"))
            ]
            if admit(.reloadDenied, fields) { log.emit(.reloadDenied, fields) }
        }
        let request = ReloadRequest(reason: kind == nil ? .reloadAllTimelines : .reloadTimelines, origin: "extension")
        for instance in targets { deliver(request, to: instance, admit: admit) }
    }

    /// A reload of `targets` for `reason` (the containing app's WidgetCenter, an app intent, a
    /// system change, a significant location change, the host API).
    func requestReload(_ targets: [WidgetInstance], reason: ReloadReason, origin: String) {
        clock.assertInLoop()
        for instance in targets { deliver(ReloadRequest(reason: reason, origin: origin), to: instance) }
    }

    /// Widgets by `bundle/kind/family`, kind, or bundle identifier.
    func instances(matching name: String) -> [WidgetInstance] {
        clock.assertInLoop()
        return instances.filter { $0.id == name || $0.kind == name || $0.bundleIdentifier == name }
    }

    private func deliver(_ request: ReloadRequest, to instance: WidgetInstance, admit: EventAdmission = { _, _ in true }) {
        guard !stopped else { return }
        switch instance.waiting {
        case .reload?:
            wake(instance, .request(request))
        case .budget(let until)?:
            if case .denied = decide(request.reason, for: instance) {
                emitDenied(instance, request, until: until, used: instance.budget.used(at: clock.now), admit: admit)
            } else {
                wake(instance, .request(request))
            }
        case .failedExtension?:
            emitFailedDenial(instance, request, admit: admit)
        case nil:
            // A reload is running (or the widget is still appearing): served right after it.
            if let pending = instance.pending {
                let kept = pending.merged(with: request)
                instance.pending = kept
                let fields =
                    instance.fields + [
                        ("reason", .string(request.reason.rawValue)), ("origin", .string(request.origin)),
                        ("into", .string(kept.reason.rawValue)),
                        ("detail", "a reload is already due right after the one in progress")
                    ]
                if admit(.reloadCoalesced, fields) { log.emit(.reloadCoalesced, fields) }
            } else {
                instance.pending = request
            }
        }
    }

    // MARK: the life of an instance

    /// A reload the system starts by itself (a significant location change): exempt from the
    /// budget, served after the activation in progress if there is one.
    func systemReload(_ instance: WidgetInstance, reason: ReloadReason) {
        clock.assertInLoop()
        requestReload([instance], reason: reason, origin: "system")
    }

    /// Runs `instance` until the scheduler stops: first appearance, then reloads.
    func run(_ instance: WidgetInstance) async {
        clock.assertInLoop()
        _ = await activate(instance, .placeholder)
        guard !stopped else { return }
        var preview = instance.context
        preview.isPreview = true
        _ = await supervisor.activate(instance.ext, .snapshot, context: preview, configuration: instance.configuration)
        var request = ReloadRequest(reason: .initial, origin: "system")
        while !stopped {
            if let pending = instance.pending {
                request = request.merged(with: pending)
                instance.pending = nil
            }
            if instance.ext.crashLoop.isFailedPermanently {
                emitFailedDenial(instance, request)
                switch await sleep(instance, .failedExtension, until: nil) {
                case .stopped: return
                case .due, .request: continue
                }
            }
            // With limits lifted, reloads of one widget are still at least a second apart, so that
            // a provider that asks again from every getTimeline cannot spin without end.
            if debugReloads, let last = instance.lastRequest, clock.now < last + debugMinimumSpacing.nanoseconds {
                switch await sleep(instance, .reload, until: last + debugMinimumSpacing.nanoseconds) {
                case .stopped: return
                case .due: break
                case .request(let asked): request = request.merged(with: asked)
                }
                continue
            }
            let now = clock.now
            let decision = decide(request.reason, for: instance, at: now)
            if case .denied(let until, let used) = decision {
                emitDenied(instance, request, until: until, used: used)
                switch await sleep(instance, .budget(until: until), until: until) {
                case .stopped: return
                case .due: continue
                case .request(let exempt): request = exempt
                }
                continue
            }
            var fields = instance.fields + [("reason", .string(request.reason.rawValue)), ("origin", .string(request.origin))]
            switch decision {
            case .charged(let remaining):
                instance.budget.charge(at: now)
                fields += [("charged", true), ("remaining", .int(Int64(remaining)))]
            case .exempt(let exemption, let remaining):
                fields += [("charged", false), ("exempt", .string(exemption.rawValue)), ("remaining", .int(Int64(remaining)))]
            case .denied:
                break
            }
            fields.append(("limit", .int(Int64(instance.budget.limit))))
            // Stamped with the instant charged, so that the ledger in the log is exact.
            log.emit(.reloadRequested, fields, at: now)
            instance.lastRequest = now

            let outcome = await activate(instance, .timeline)
            instance.retryDue = false
            if case .timeline(let timeline) = outcome {
                record(timeline, for: instance)
            } else {
                scheduleRetry(instance, after: outcome)
            }
            switch await sleep(instance, .reload, until: instance.nextReload) {
            case .stopped: return
            case .due: request = ReloadRequest(reason: instance.retryDue ? .retry : .policy, origin: "system")
            case .request(let asked): request = asked
            }
        }
    }

    /// Wakes the instances of `ext` that wait because it had failed permanently (failures cleared).
    func extensionRevived(_ ext: ManagedExtension) {
        clock.assertInLoop()
        for instance in instances where instance.ext === ext {
            var blocked = instance.failedWithExtension
            if case .failedExtension? = instance.waiting { blocked = true }
            guard blocked else { continue }
            instance.failedWithExtension = false
            instance.retryDue = true
            wake(instance, .due)
        }
    }

    /// Wakes every instance with `.stopped`; their tasks end.
    func stop() {
        clock.assertInLoop()
        stopped = true
        for instance in instances { wake(instance, .stopped) }
    }

    // MARK: decisions

    private func decide(_ reason: ReloadReason, for instance: WidgetInstance, at now: UInt64? = nil) -> ReloadDecision {
        ReloadDecision.decide(
            reason, budget: instance.budget, now: now ?? clock.now,
            appExemption: system.exemption(forApp: instance.appIdentifier), debug: debugReloads)
    }

    private func emitDenied(
        _ instance: WidgetInstance, _ request: ReloadRequest, until: UInt64, used: Int, admit: EventAdmission = { _, _ in true }
    ) {
        let fields: [(String, JSONValue)] =
            instance.fields + [
                ("reason", "budgetExhausted"), ("requested", .string(request.reason.rawValue)), ("origin", .string(request.origin)),
                ("used", .int(Int64(used))), ("limit", .int(Int64(instance.budget.limit))),
                ("until", .double(Double(until) / 1e6)), ("untilDate", .string(iso8601(clock.date(at: until)))),
                (
                    "detail",
                    .string(
                        "\(used) charged reloads in the last \(format(budgetWindow)); the next is allowed when the oldest leaves the window"
                    )
                )
            ]
        if admit(.reloadDenied, fields) { log.emit(.reloadDenied, fields) }
    }

    private func emitFailedDenial(_ instance: WidgetInstance, _ request: ReloadRequest, admit: EventAdmission = { _, _ in true }) {
        let fields: [(String, JSONValue)] =
            instance.fields + [
                ("reason", "extensionFailed"), ("requested", .string(request.reason.rawValue)), ("origin", .string(request.origin)),
                (
                    "detail",
                    "the extension failed permanently after repeated failures; it is not launched again until its failures are cleared"
                )
            ]
        if admit(.reloadDenied, fields) { log.emit(.reloadDenied, fields) }
    }

    private func activate(_ instance: WidgetInstance, _ kind: ActivationKind) async -> ActivationOutcome {
        await supervisor.activate(instance.ext, kind, context: instance.context, configuration: instance.configuration)
    }

    /// After a reload that produced no timeline: the next attempt when the extension's backoff
    /// ends (its process died of a failure), else after `retryDelay`; none once it failed permanently.
    private func scheduleRetry(_ instance: WidgetInstance, after outcome: ActivationOutcome) {
        let now = clock.now
        var fields = instance.fields + [("outcome", .string(outcome.label)), ("keptTimeline", .bool(instance.timeline != nil))]
        if case .killed(let reason) = outcome { fields.append(("killReason", .string(reason.rawValue))) }
        if case .failed(let error) = outcome { fields.append(("error", .string(error))) }
        if instance.ext.crashLoop.isFailedPermanently {
            instance.nextReload = nil
            instance.failedWithExtension = true
            fields.append(("retryAt", .null))
        } else {
            let backoff = instance.ext.crashLoop.blockedUntil(now: now)
            let retry = backoff ?? now + retryDelay.nanoseconds
            instance.nextReload = retry
            instance.retryDue = true
            fields += [("retryAt", .double(Double(retry) / 1e6)), ("retryDate", .string(iso8601(clock.date(at: retry))))]
            if backoff != nil { fields.append(("backoff", true)) }
        }
        log.emit(.reloadFailed, fields)
    }

    /// Records a timeline and computes the next reload from its policy.
    private func record(_ timeline: TimelinePayload, for instance: WidgetInstance) {
        let now = clock.now
        instance.timeline = timeline.kept
        instance.lastReload = now
        instance.reloads += 1
        let spacing = debugReloads ? debugMinimumSpacing : minimumSpacing
        let earliest = now + spacing.nanoseconds
        let policy: String
        var fields = instance.fields
        switch timeline.policy {
        case .atEnd:
            policy = "atEnd"
            let last = timeline.entries.map(\.date).max().map { clock.instant(at: $0) } ?? now
            if SystemChosenReload.applies(entryCount: timeline.entries.count) {
                let visibility = system.visibility(of: instance.id)
                let chosen = now + SystemChosenReload.interval(for: visibility).nanoseconds
                instance.nextReload = max(last, chosen, earliest)
                fields += [("systemChosen", true), ("visibility", .string(visibility.rawValue))]
            } else {
                instance.nextReload = max(last, earliest)
            }
        case .after(let date):
            policy = "after"
            fields.append(("policyDate", .string(iso8601(date))))
            let asked = clock.instant(at: date)
            instance.nextReload = max(asked, earliest)
            if asked < earliest { fields.append(("clamped", true)) }
        case .never:
            policy = "never"
            instance.nextReload = nil
        }
        let (entries, texts, leftOut) = EntryLog.timeline(timeline.entries)
        fields += [
            ("entries", .array(entries)),
            ("entryDates", .array(timeline.entries.map { .string(iso8601($0.date)) })),
            ("policy", .string(policy))
        ]
        if timeline.entries.contains(where: { $0.text != nil }) { fields.append(("texts", .array(texts))) }
        if leftOut > 0 { fields.append(("entriesLeftOut", .int(Int64(leftOut)))) }
        if timeline.entries.contains(where: { $0.view != nil }) {
            let (views, leftOut) = ViewRendering.eventViews(timeline.entries.map(\.view))
            fields.append(("views", .array(views)))
            if leftOut > 0 { fields.append(("viewsLeftOut", .int(Int64(leftOut)))) }
            let nanoseconds = timeline.entries.reduce(UInt64(0)) { $0 &+ ($1.view?.nanoseconds ?? 0) }
            fields.append(("renderMs", .double((Double(nanoseconds) / 1e3).rounded() / 1e3)))
        }
        if let next = instance.nextReload {
            fields += [("nextReload", .double(Double(next) / 1e6)), ("nextReloadDate", .string(iso8601(clock.date(at: next))))]
        } else {
            fields.append(("nextReload", .null))
        }
        log.emit(.timeline, fields, at: now)
    }

    // MARK: sleeping

    /// Sleeps until `until` (or for good), or until a request that `waiting` accepts. The
    /// requests that arrived since the instance last looked (``WidgetInstance/pending``) are
    /// handled when the sleep is registered — inside the continuation's body, since the task may
    /// yield to the loop between calling this and that body running.
    private func sleep(_ instance: WidgetInstance, _ waiting: WidgetInstance.Waiting, until: UInt64?) async -> WidgetInstance.Wake {
        await withCheckedContinuation { continuation in
            if stopped { return continuation.resume(returning: .stopped) }
            if let pending = instance.pending {
                instance.pending = nil
                switch waiting {
                case .reload:
                    return continuation.resume(returning: .request(pending))
                case .budget(let until):
                    if case .denied = decide(pending.reason, for: instance) {
                        emitDenied(instance, pending, until: until, used: instance.budget.used(at: clock.now))
                    } else {
                        return continuation.resume(returning: .request(pending))
                    }
                case .failedExtension:
                    emitFailedDenial(instance, pending)
                }
            }
            // One task runs an instance; a sleeper already there would never be woken again.
            if let earlier = instance.sleeper {
                instance.sleeper = nil
                if let timer = instance.sleepTimer { clock.cancel(timer) }
                instance.sleepTimer = nil
                earlier.resume(returning: .stopped)
            }
            instance.sleeper = continuation
            instance.waiting = waiting
            if let until {
                instance.sleepTimer = clock.schedule(at: until) { [unowned self, unowned instance] in
                    instance.sleepTimer = nil
                    self.wake(instance, .due)
                }
            }
        }
    }

    private func wake(_ instance: WidgetInstance, _ reason: WidgetInstance.Wake) {
        guard let sleeper = instance.sleeper else {
            if case .request(let request) = reason {
                instance.pending = instance.pending.map { $0.merged(with: request) } ?? request
            }
            return
        }
        instance.sleeper = nil
        instance.waiting = nil
        if let timer = instance.sleepTimer {
            clock.cancel(timer)
            instance.sleepTimer = nil
        }
        sleeper.resume(returning: reason)
    }
}

/// `2026-11-21T21:40:00.000Z` for seconds since 1970.
package func iso8601(_ seconds: Double) -> String {
    Date(timeIntervalSince1970: seconds).formatted(
        .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
}

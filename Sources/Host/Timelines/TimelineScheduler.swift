import Foundation
import SandglassIPC

/// Adds widget instances for the kinds an extension declares and keeps each one's timeline:
/// placeholder, snapshot and timeline when it appears, then reloads by its policy and by
/// WidgetCenter requests. Confined to the host's loop thread.
final class TimelineScheduler {
    /// The minimum spacing WidgetKit imposes between reloads ("at least about 5 minutes").
    var minimumSpacing: Duration = .seconds(300)
    /// After a failed or killed reload, the next attempt comes this much later.
    var retryDelay: Duration = .seconds(300)

    private let supervisor: Supervisor
    private let clock: RunClock
    private let log: EventLog
    private(set) var instances: [WidgetInstance] = []
    private var stopped = false

    init(supervisor: Supervisor, clock: RunClock, log: EventLog) {
        self.supervisor = supervisor
        self.clock = clock
        self.log = log
    }

    /// One instance per kind the extension declares, in its first supported family.
    func addInstances(for ext: ManagedExtension, hello: Hello) -> [WidgetInstance] {
        var added: [WidgetInstance] = []
        for widget in hello.widgets where !instances.contains(where: { $0.ext === ext && $0.kind == widget.kind }) {
            let family = widget.supportedFamilies.first ?? "systemSmall"
            let instance = WidgetInstance(ext: ext, kind: widget.kind, family: family)
            instances.append(instance)
            added.append(instance)
            log.emit("widget.added", [("bundle", .string(ext.identifier)), ("kind", .string(widget.kind)), ("family", .string(family))])
        }
        return added
    }

    /// A reload asked for by the extension (`WidgetCenter`): `kind` nil means all its widgets.
    func requestReload(from ext: ManagedExtension, kind: String?) {
        let targets = instances.filter { $0.ext === ext && (kind == nil || $0.kind == kind) }
        if targets.isEmpty {
            log.emit("reload.denied", [("bundle", .string(ext.identifier)), ("kind", .string(kind ?? "*")),
                                       ("reason", "noSuchWidget"), ("detail", .string("no widget of kind \(kind ?? "*") is on screen"))])
        }
        for instance in targets { wake(instance, .reloadRequested(kind == nil ? "reloadAllTimelines" : "reloadTimelines")) }
    }

    /// A reload the system starts by itself (a significant location change): `reason` is the
    /// `reload.requested` reason. If the instance is busy, the reload follows its activation.
    func systemReload(_ instance: WidgetInstance, reason: String) {
        wake(instance, .reloadRequested(reason))
    }

    /// Runs `instance` until the scheduler stops: first appearance, then reloads.
    func run(_ instance: WidgetInstance) async {
        _ = await activate(instance, .placeholder)
        guard !stopped else { return }
        var preview = instance.context
        preview.isPreview = true
        _ = await supervisor.activate(instance.ext, .snapshot, context: preview)
        var reason = "initial"
        while !stopped {
            log.emit("reload.requested", [("bundle", .string(instance.bundleIdentifier)), ("kind", .string(instance.kind)),
                                          ("family", .string(instance.family)), ("reason", .string(reason))])
            let outcome = await activate(instance, .timeline)
            if case .timeline(let timeline) = outcome {
                record(timeline, for: instance)
            } else {
                instance.nextReload = clock.now + retryDelay.nanoseconds
                log.emit("reload.failed", [("bundle", .string(instance.bundleIdentifier)), ("kind", .string(instance.kind)),
                                           ("outcome", .string(outcome.label)), ("keptTimeline", .bool(instance.timeline != nil)),
                                           ("retryAt", .double(Double(instance.nextReload!) / 1e6))])
            }
            switch await sleep(instance) {
            case .stopped: return
            case .due: reason = "policy"
            case .reloadRequested(let why): reason = why
            }
        }
    }

    private func activate(_ instance: WidgetInstance, _ kind: ActivationKind) async -> ActivationOutcome {
        await supervisor.activate(instance.ext, kind, context: instance.context)
    }

    /// Records a timeline and computes the next reload from its policy.
    private func record(_ timeline: TimelinePayload, for instance: WidgetInstance) {
        let now = clock.now
        instance.timeline = timeline
        instance.lastReload = now
        instance.reloads += 1
        let earliest = now + minimumSpacing.nanoseconds
        let policy: String
        var fields: [(String, JSONValue)] = [("bundle", .string(instance.bundleIdentifier)), ("kind", .string(instance.kind)),
                                             ("family", .string(instance.family))]
        switch timeline.policy {
        case .atEnd:
            policy = "atEnd"
            let last = timeline.entries.map(\.date).max().map { clock.instant(at: $0) } ?? now
            instance.nextReload = max(last, earliest)
        case .after(let date):
            policy = "after"
            fields.append(("policyDate", .string(iso8601(date))))
            instance.nextReload = max(clock.instant(at: date), earliest)
        case .never:
            policy = "never"
            instance.nextReload = nil
        }
        fields += [
            ("entries", .array(timeline.entries.map { .raw(validJSON($0.json)) })),
            ("entryDates", .array(timeline.entries.map { .string(iso8601($0.date)) })),
            ("policy", .string(policy)),
        ]
        if timeline.entries.contains(where: { $0.text != nil }) {
            fields.append(("texts", .array(timeline.entries.map { $0.text.map(JSONValue.string) ?? .null })))
        }
        if let next = instance.nextReload {
            fields += [("nextReload", .double(Double(next) / 1e6)), ("nextReloadDate", .string(iso8601(clock.date(at: next))))]
        } else {
            fields.append(("nextReload", .null))
        }
        log.emit("timeline", fields)
    }

    private func sleep(_ instance: WidgetInstance) async -> WidgetInstance.Wake {
        if stopped { return .stopped }
        if let pending = instance.pendingReload {
            instance.pendingReload = nil
            return .reloadRequested(pending)
        }
        return await withCheckedContinuation { continuation in
            // Checked again here: the body may run after an executor hop.
            if stopped { return continuation.resume(returning: .stopped) }
            if let pending = instance.pendingReload {
                instance.pendingReload = nil
                return continuation.resume(returning: .reloadRequested(pending))
            }
            instance.sleeper = continuation
            if let next = instance.nextReload {
                instance.sleepTimer = clock.schedule(at: next) { [unowned self, unowned instance] in
                    instance.sleepTimer = nil
                    self.wake(instance, .due)
                }
            }
        }
    }

    private func wake(_ instance: WidgetInstance, _ reason: WidgetInstance.Wake) {
        guard let sleeper = instance.sleeper else {
            if case .reloadRequested(let why) = reason { instance.pendingReload = why }
            return
        }
        instance.sleeper = nil
        if let timer = instance.sleepTimer {
            clock.cancel(timer)
            instance.sleepTimer = nil
        }
        sleeper.resume(returning: reason)
    }

    /// Wakes every instance with `.stopped`; their tasks end.
    func stop() {
        stopped = true
        for instance in instances { wake(instance, .stopped) }
    }
}

/// `2026-11-21T21:40:00.000Z` for seconds since 1970.
func iso8601(_ seconds: Double) -> String {
    Date(timeIntervalSince1970: seconds).formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
}

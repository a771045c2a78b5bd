import CSandbox

/// The refresh measurements of `sandglass bench`, on the host's loop: app-intent reloads asked
/// of the scheduler, timed to their `timeline` events as the log records them. Loop-confined.
final class RefreshProbe {
    private let log: EventLog
    private let scheduler: TimelineScheduler
    private let supervisor: Supervisor
    private let loop: EventLoop

    init(log: EventLog, scheduler: TimelineScheduler, supervisor: Supervisor, loop: EventLoop) {
        self.log = log
        self.scheduler = scheduler
        self.supervisor = supervisor
        self.loop = loop
    }

    /// One refresh of the first widget matching `widget` (cold: its process killed and reaped
    /// first), in nanoseconds; `nil` when it produced no timeline.
    func refresh(_ widget: String, cold: Bool) async -> UInt64? {
        guard let instance = scheduler.instances(matching: widget).first else { return nil }
        if cold, instance.ext.process != nil {
            supervisor.kill(instance.ext, .idle, detail: "benchmark: cold refresh")
            await supervisor.waitUntilStopped(instance.ext)
        }
        let bundle = instance.bundleIdentifier, kind = instance.kind
        return await withCheckedContinuation { (continuation: CheckedContinuation<UInt64?, Never>) in
            let log = self.log
            var observer: UInt64 = 0
            let started = sg_monotonic_ns()
            observer = log.observe { event in
                guard event.bundle == bundle, event.string("kind") == kind else { return }
                switch event.kind {
                case .timeline:
                    let now = sg_monotonic_ns()
                    log.removeObserver(observer)
                    continuation.resume(returning: now - started)
                case .reloadFailed, .reloadDenied:
                    log.removeObserver(observer)
                    continuation.resume(returning: nil)
                default:
                    break
                }
            }
            scheduler.requestReload([instance], reason: .appIntent, origin: "host")
        }
    }

    /// Closed-loop refreshes of every widget of `bundles` for `duration`: (timelines, seconds).
    func throughput(_ bundles: Set<String>, duration: Duration) async -> (timelines: Int, seconds: Double) {
        let targets = scheduler.instances.filter { bundles.contains($0.bundleIdentifier) }
        guard !targets.isEmpty else { return (0, 0) }
        let counter = Counter()
        for instance in targets { counter.byName[instance.bundleIdentifier + "\u{0}" + instance.kind] = instance }
        let scheduler = self.scheduler
        let observer = log.observe { event in
            guard counter.counting, event.kind == .timeline, let bundle = event.bundle, let kind = event.string("kind"),
                let instance = counter.byName[bundle + "\u{0}" + kind]
            else { return }
            counter.timelines += 1
            scheduler.requestReload([instance], reason: .appIntent, origin: "host")
        }
        let started = sg_monotonic_ns()
        scheduler.requestReload(targets, reason: .appIntent, origin: "host")
        await sleep(until: started + duration.nanoseconds)
        counter.counting = false
        let seconds = Double(sg_monotonic_ns() - started) / 1e9
        log.removeObserver(observer)
        // Let the reloads in flight finish, so that the next measurement starts from rest.
        let settleBy = sg_monotonic_ns() + 10_000_000_000
        for instance in targets {
            while instance.waiting == nil && sg_monotonic_ns() < settleBy {
                await sleep(until: sg_monotonic_ns() + 1_000_000)
            }
        }
        return (counter.timelines, seconds)
    }

    private final class Counter {
        var byName: [String: WidgetInstance] = [:]
        var counting = true
        var timelines = 0
    }

    private func sleep(until deadline: UInt64) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.schedule(at: deadline) { continuation.resume() }
        }
    }
}

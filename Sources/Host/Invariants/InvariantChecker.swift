import Foundation

/// Checks the ``Invariant``s over an event log — one host's, or several hosts' one after the
/// other (each beginning with `run.start`), as `sandglass stress` writes it across host
/// restarts. Works on any log file:
///
/// ```swift
/// let report = InvariantChecker().check(try HostEvent.read(logAt: "run.jsonl"))
/// for violation in report.violations { print(violation) }
/// ```
public struct InvariantChecker: Sendable {
    /// Accept events still waiting for delivery or acknowledgement when the log ends (a run
    /// stopped before its downloads drained). `sandglass stress` drains, so it does not.
    public var allowPendingAtEnd = false

    public init(allowPendingAtEnd: Bool = false) {
        self.allowPendingAtEnd = allowPendingAtEnd
    }

    /// The verdicts on every invariant over `events`.
    public func check(_ events: [HostEvent]) -> InvariantReport {
        var verdicts: [Invariant: InvariantVerdict] = [:]
        for invariant in Invariant.allCases { verdicts[invariant] = InvariantVerdict(invariant: invariant, checked: 0, violations: []) }
        func violate(_ v: InvariantViolation) { verdicts[v.invariant]!.violations.append(v) }
        func count(_ invariant: Invariant, _ n: Int = 1) { verdicts[invariant]!.checked += n }

        let hosts = Self.hosts(of: events)
        for host in hosts {
            checkActivations(host, count: count, violate: violate)
            checkProcesses(host, count: count, violate: violate)
            checkReloadBudget(host, count: count, violate: violate)
            checkConversations(host, count: count, violate: violate)
        }
        checkDeliveries(events, hosts: hosts, count: count, violate: violate)
        checkHygiene(events, hosts: hosts, count: count, violate: violate)
        return InvariantReport(verdicts: Invariant.allCases.map { verdicts[$0]! })
    }

    /// One host's stretch of the log.
    struct Host {
        let index: Int
        let events: ArraySlice<HostEvent>
        /// The host shut down (its `run.end` is there), rather than dying.
        var endedCleanly: Bool { events.contains { $0.kind == .runEnd } }
    }

    /// The log cut at each `run.start` (events before the first belong to none).
    static func hosts(of events: [HostEvent]) -> [Host] {
        let starts = events.indices.filter { events[$0].kind == .runStart }
        return starts.enumerated().map { n, start in
            let end = n + 1 < starts.count ? starts[n + 1] : events.count
            return Host(index: n, events: events[start..<end])
        }
    }

    // MARK: activations

    private func checkActivations(_ host: Host, count: (Invariant, Int) -> Void, violate: (InvariantViolation) -> Void) {
        struct Key: Hashable { let pid: Int64; let activation: Int64 }
        var open: [Key: HostEvent] = [:]
        var ended: Set<Key> = []
        for event in host.events {
            guard event.kind == .activationStart || event.kind == .activationEnd,
                let activation = event.int("activation")
            else { continue }
            let key = Key(pid: event.int("pid") ?? -1, activation: activation)
            if event.kind == .activationStart {
                count(.oneOutcomePerActivation, 1)
                open[key] = event
                continue
            }
            let what = "activation \(activation) (\(event.string("kind") ?? "?")) of pid \(key.pid)"
            if ended.contains(key) {
                violate(
                    InvariantViolation(
                        .oneOutcomePerActivation,
                        "\(what) ended a second time, at \(format3(event.t)) ms, with outcome \(event.string("outcome") ?? "none")",
                        bundle: event.bundle, host: host.index))
            } else if open.removeValue(forKey: key) == nil {
                violate(
                    InvariantViolation(
                        .oneOutcomePerActivation, "\(what) ended at \(format3(event.t)) ms without having started", bundle: event.bundle,
                        host: host.index))
            }
            ended.insert(key)
            if !["ok", "failed", "killed"].contains(event.string("outcome") ?? "") {
                violate(
                    InvariantViolation(
                        .oneOutcomePerActivation,
                        "\(what) ended with outcome \(event.string("outcome").map { "\"\($0)\"" } ?? "missing"), not ok, failed or killed",
                        bundle: event.bundle, host: host.index))
            }
        }
        if host.endedCleanly {
            for (key, start) in open.sorted(by: { $0.value.t < $1.value.t }) {
                violate(
                    InvariantViolation(
                        .oneOutcomePerActivation,
                        "activation \(key.activation) (\(start.string("kind") ?? "?")) of pid \(key.pid), started at \(format3(start.t)) ms, never ended although the host shut down",
                        bundle: start.bundle, host: host.index))
            }
        }
    }

    // MARK: processes

    private func checkProcesses(_ host: Host, count: (Invariant, Int) -> Void, violate: (InvariantViolation) -> Void) {
        guard host.endedCleanly else { return } // a dead host's processes are checked by its supervisor (`host.ended`)
        var live: [Int64: HostEvent] = [:]
        var endIndex = host.events.endIndex
        if let end = host.events.firstIndex(where: { $0.kind == .runEnd }) { endIndex = end }
        for event in host.events[host.events.startIndex..<endIndex] {
            if event.kind == .spawned, let pid = event.int("pid") {
                count(.noOrphans, 1)
                live[pid] = event
            } else if event.kind == .exited, let pid = event.int("pid") {
                live.removeValue(forKey: pid)
            }
        }
        for (pid, spawned) in live.sorted(by: { $0.key < $1.key }) {
            violate(
                InvariantViolation(
                    .noOrphans, "pid \(pid), spawned at \(format3(spawned.t)) ms, was never reaped before the host shut down",
                    bundle: spawned.bundle, host: host.index))
        }
    }

    // MARK: reload budget

    private func checkReloadBudget(_ host: Host, count: (Invariant, Int) -> Void, violate: (InvariantViolation) -> Void) {
        let events = Array(host.events)
        count(
            .reloadBudget,
            Set(
                events.filter { $0.kind == .widgetAdded }.map {
                    "\($0.bundle ?? "")/\($0.string("kind") ?? "")/\($0.string("family") ?? "")"
                }
            ).count)
        for violation in ReloadAudit.budgetViolations(in: events) {
            violate(InvariantViolation(.reloadBudget, violation.description, bundle: violation.bundle, host: host.index))
        }
    }

    // MARK: completions

    private func checkConversations(_ host: Host, count: (Invariant, Int) -> Void, violate: (InvariantViolation) -> Void) {
        // Each backgroundEvents activation (pid, session) may be finished once.
        struct Key: Hashable { let pid: Int64; let session: String }
        var conversations: [Key: Int] = [:]
        for event in host.events {
            switch event.kind {
            case .activationStart where event.string("kind") == "backgroundEvents":
                count(.completionAtMostOnce, 1)
                conversations[Key(pid: event.int("pid") ?? -1, session: event.string("session") ?? "")] = 0
            case .eventsFinished:
                let key = Key(pid: event.int("pid") ?? -1, session: event.string("identifier") ?? "")
                guard let finished = conversations[key] else {
                    violate(
                        InvariantViolation(
                            .completionAtMostOnce,
                            "pid \(key.pid) finished session \(key.session) at \(format3(event.t)) ms with no background-events activation of it",
                            bundle: event.bundle, host: host.index))
                    continue
                }
                if finished >= 1 {
                    violate(
                        InvariantViolation(
                            .completionAtMostOnce,
                            "pid \(key.pid)'s events of session \(key.session) were finished a second time at \(format3(event.t)) ms",
                            bundle: event.bundle, host: host.index))
                }
                conversations[key] = finished + 1
            default:
                break
            }
        }
    }

    // MARK: deliveries

    private func checkDeliveries(
        _ events: [HostEvent], hosts: [Host], count: (Invariant, Int) -> Void, violate: (InvariantViolation) -> Void
    ) {
        struct Task: Hashable { let session: String; let taskId: Int64 }
        var hostOf: [Int: Int] = [:] // event index → host
        for host in hosts { for i in host.events.indices { hostOf[i] = host.index } }

        var ended: [Task: (event: HostEvent, host: Int)] = [:] // download.finished / download.failed
        var deliveredTasks: Set<Task> = []
        var delivered: [Int64: (event: HostEvent, host: Int)] = [:] // eventId → first delivery
        var acknowledged: [Int64: (event: HostEvent, host: Int)] = [:]
        var intended: [Int64: Int] = [:] // eventId → host of events.acknowledging
        var dropped: Set<String> = [] // sessions invalidated with their events
        var droppedAt: [String: Int] = [:]
        var taskURL: [Task: String] = [:]
        var serverCompleted: [(uri: String, event: HostEvent)] = []

        for (index, event) in events.enumerated() {
            let host = hostOf[index] ?? 0
            switch event.kind {
            case .taskCreated:
                if let session = event.string("session"), let task = event.int("taskId"), let url = event.string("url") {
                    taskURL[Task(session: session, taskId: task)] = url
                }
            case .downloadFinished, .downloadFailed:
                if let session = event.string("session"), let task = event.int("taskId") {
                    ended[Task(session: session, taskId: task)] = (event, host)
                }
            case .eventDelivered:
                guard let id = event.int("eventId") else { continue }
                if let session = event.string("session"), let task = event.int("taskId") {
                    deliveredTasks.insert(Task(session: session, taskId: task))
                }
                count(.noDeliveryAfterAcknowledgement, 1)
                if let ack = acknowledged[id] {
                    violate(
                        InvariantViolation(
                            .noDeliveryAfterAcknowledgement,
                            "event \(id) (task #\(event.int("taskId") ?? 0), session \(event.string("session") ?? "?")) was delivered again (attempt \(event.int("attempt") ?? 0), host \(host)) after its acknowledgement by pid \(ack.event.int("pid") ?? 0) (host \(ack.host))",
                            bundle: event.bundle, host: host))
                }
                intended.removeValue(forKey: id) // redelivered: the acknowledgement was not committed
                if delivered[id] == nil { delivered[id] = (event, host) }
            case .eventsAcknowledging:
                for id in Self.ids(event) { intended[id] = host }
            case .eventsFinished:
                for id in Self.ids(event) {
                    count(.completionAtMostOnce, 1)
                    if let earlier = acknowledged[id] {
                        violate(
                            InvariantViolation(
                                .completionAtMostOnce,
                                "event \(id) was acknowledged twice: by pid \(earlier.event.int("pid") ?? 0) (host \(earlier.host)) and by pid \(event.int("pid") ?? 0) (host \(host))",
                                bundle: event.bundle, host: host))
                    }
                    acknowledged[id] = (event, host)
                    intended.removeValue(forKey: id)
                }
            case .sessionInvalidated where event["cancelTasks"] == .bool(true):
                if let session = event.string("session") {
                    dropped.insert(session)
                    droppedAt[session] = index
                }
            case .serverCompleted:
                if let uri = event.string("uri") { serverCompleted.append((uri, event)) }
            default:
                break
            }
        }
        // An acknowledgement committed just before its host died: intended, never delivered again.
        for (id, host) in intended where acknowledged[id] == nil {
            if let first = delivered[id] { acknowledged[id] = (first.event, host) }
        }

        for (task, end) in ended.sorted(by: { $0.value.event.t < $1.value.event.t }) {
            count(.downloadsAcknowledged, 1)
            guard !dropped.contains(task.session) else { continue }
            if !deliveredTasks.contains(task) && !allowPendingAtEnd {
                let what = end.event.kind == .downloadFinished ? "finished" : "failed"
                violate(
                    InvariantViolation(
                        .downloadsAcknowledged,
                        "task #\(task.taskId) of session \(task.session) \(what) (host \(end.host), \(format3(end.event.t)) ms) but its events were never delivered",
                        bundle: end.event.bundle, host: end.host))
            }
        }
        for (id, first) in delivered.sorted(by: { $0.key < $1.key }) where acknowledged[id] == nil {
            let session = first.event.string("session") ?? "?"
            if dropped.contains(session) || allowPendingAtEnd { continue }
            violate(
                InvariantViolation(
                    .downloadsAcknowledged,
                    "event \(id) (task #\(first.event.int("taskId") ?? 0), session \(session)) was delivered (first to pid \(first.event.int("pid") ?? 0), host \(first.host)) but never acknowledged",
                    bundle: first.event.bundle, host: first.host))
        }
        // The server's view: a body it sent whole belongs to a task that finished.
        let finishedURLs = Set(ended.filter { $0.value.event.kind == .downloadFinished }.compactMap { taskURL[$0.key] })
        for (uri, event) in serverCompleted {
            count(.downloadsAcknowledged, 1)
            let ownerTasks = taskURL.filter { $0.value.hasSuffix(uri) }
            guard !ownerTasks.isEmpty else { continue } // not a download of the host (an inline request)
            if ownerTasks.allSatisfy({ dropped.contains($0.key.session) }) { continue }
            if !finishedURLs.contains(where: { $0.hasSuffix(uri) }) && !allowPendingAtEnd {
                violate(
                    InvariantViolation(
                        .downloadsAcknowledged,
                        "the server sent \(uri) whole (\(event.int("count") ?? 1)×), but no task downloading it finished", bundle: nil,
                        host: hosts.last?.index ?? 0))
            }
        }
    }

    static func ids(_ event: HostEvent) -> [Int64] {
        guard case .array(let values)? = event["eventIds"] else { return [] }
        return values.compactMap(\.intValue)
    }

    // MARK: hygiene, orphans, progress

    private func checkHygiene(_ events: [HostEvent], hosts: [Host], count: (Invariant, Int) -> Void, violate: (InvariantViolation) -> Void)
    {
        var host = -1
        for event in events {
            if event.kind == .runStart { host += 1 }
            let h = max(host, 0)
            switch event.kind {
            case .hygiene:
                count(.noZombies, 1)
                count(.descriptorsReturn, 1)
                if let zombies = event.int("zombies"), zombies > 0 {
                    violate(
                        InvariantViolation(
                            .noZombies, "\(zombies) zombie children of host pid \(event.int("hostPid") ?? 0) after its shutdown", host: h))
                }
                if let fds = event.int("fds"), let baseline = event.int("fdBaseline"), fds > baseline {
                    var leaked = ""
                    if case .array(let names)? = event["leaked"] { leaked = ": " + names.compactMap(\.stringValue).joined(separator: ", ") }
                    violate(
                        InvariantViolation(
                            .descriptorsReturn,
                            "host pid \(event.int("hostPid") ?? 0) has \(fds) descriptors open after its shutdown, \(fds - baseline) more than its baseline of \(baseline)\(leaked)",
                            host: h))
                }
                if case .array(let left)? = event["processesLeft"], !left.isEmpty {
                    violate(
                        InvariantViolation(
                            .noOrphans,
                            "processes \(left.compactMap(\.intValue).map(String.init).joined(separator: ", ")) still exist after host pid \(event.int("hostPid") ?? 0) shut down",
                            host: h))
                }
            case .hostEnded:
                count(.noOrphans, 1)
                if case .array(let survivors)? = event["survivors"], !survivors.isEmpty {
                    violate(
                        InvariantViolation(
                            .noOrphans,
                            "extension processes \(survivors.compactMap(\.intValue).map(String.init).joined(separator: ", ")) outlived host pid \(event.int("hostPid") ?? 0)",
                            host: h))
                }
            case .stressHygiene:
                count(.noZombies, 1)
                if let zombies = event.int("zombies"), zombies > 0 {
                    violate(InvariantViolation(.noZombies, "\(zombies) zombie children of the stress conductor at the end", host: h))
                }
            case .stressStall:
                violate(
                    InvariantViolation(
                        .progress, event.string("detail") ?? "a chaos step passed its deadline", bundle: event.bundle, host: h))
            default:
                break
            }
        }
        count(.progress, hosts.count)
    }
}

import SandglassHost
import Testing

/// Each invariant holds on a good log and fails on a crafted one that breaks it.
@Suite("Invariant checker")
struct InvariantCheckerTests {
    /// An event with fields given as a dictionary literal.
    static func e(_ t: Double, _ name: String, _ fields: KeyValuePairs<String, JSONValue> = [:]) -> HostEvent {
        HostEvent(t: t, name: name, fields: fields.map { ($0.key, $0.value) })
    }

    static let bundle: JSONValue = "com.example.downloader.widget"

    /// A host that launches, answers a timeline, downloads, delivers and acknowledges, and shuts down.
    static var good: [HostEvent] {
        [
            e(0, "run.start", ["pid": 100]),
            e(1, "spawned", ["bundle": bundle, "pid": 10]),
            e(2, "hello", ["bundle": bundle, "pid": 10]),
            e(3, "activation.start", ["bundle": bundle, "pid": 10, "activation": 1, "kind": "timeline"]),
            e(4, "task.created", ["bundle": bundle, "pid": 10, "session": "feed", "taskId": 1, "url": "http://127.0.0.1:1/bytes/10"]),
            e(5, "activation.end", ["bundle": bundle, "pid": 10, "activation": 1, "kind": "timeline", "outcome": "ok"]),
            e(6, "killed", ["bundle": bundle, "pid": 10, "reason": "idle"]),
            e(7, "exited", ["bundle": bundle, "pid": 10, "signal": "SIGKILL"]),
            e(8, "download.finished", ["bundle": bundle, "session": "feed", "taskId": 1]),
            e(9, "spawned", ["bundle": bundle, "pid": 11]),
            e(10, "activation.start", ["bundle": bundle, "pid": 11, "activation": 2, "kind": "backgroundEvents", "session": "feed"]),
            e(11, "event.delivered", ["bundle": bundle, "pid": 11, "session": "feed", "taskId": 1, "eventId": 5, "attempt": 1]),
            e(12, "event.delivered", ["bundle": bundle, "pid": 11, "session": "feed", "taskId": 1, "eventId": 6, "attempt": 1]),
            e(13, "events.acknowledging", ["bundle": bundle, "pid": 11, "identifier": "feed", "eventIds": [5, 6]]),
            e(14, "events.finished", ["bundle": bundle, "pid": 11, "identifier": "feed", "acknowledged": 2, "eventIds": [5, 6]]),
            e(15, "activation.end", ["bundle": bundle, "pid": 11, "activation": 2, "kind": "backgroundEvents", "outcome": "ok"]),
            e(16, "killed", ["bundle": bundle, "pid": 11, "reason": "hostShutdown"]),
            e(17, "exited", ["bundle": bundle, "pid": 11, "signal": "SIGKILL"]),
            e(18, "run.end"),
            e(18, "hygiene", ["hostPid": 100, "fdBaseline": 12, "fds": 12, "zombies": 0, "processesLeft": []]),
            e(19, "server.completed", ["uri": "/bytes/10", "count": 1])
        ]
    }

    static func check(_ events: [HostEvent]) -> InvariantReport { InvariantChecker().check(events) }

    /// The only invariants broken are `broken`.
    static func expectBroken(_ events: [HostEvent], _ broken: Set<Invariant>, sourceLocation: SourceLocation = #_sourceLocation) {
        let report = check(events)
        let actual = Set(report.violations.map(\.invariant))
        #expect(actual == broken, "\(report)", sourceLocation: sourceLocation)
    }

    @Test("a good log: every invariant holds, with things checked")
    func goodLog() {
        let report = Self.check(Self.good)
        #expect(report.held, "\(report)")
        #expect(report[.downloadsAcknowledged].checked == 2)
        #expect(report[.oneOutcomePerActivation].checked == 2)
        #expect(report[.noDeliveryAfterAcknowledgement].checked == 2)
    }

    @Test("a finished download never delivered")
    func downloadNotDelivered() {
        let log = Self.good.filter { $0.kind != .eventDelivered && $0.kind != .eventsFinished && $0.kind != .eventsAcknowledging }
        Self.expectBroken(log, [.downloadsAcknowledged])
        #expect(Self.check(log).violations[0].detail.contains("task #1 of session feed finished"))
    }

    @Test("a delivered event never acknowledged")
    func eventNotAcknowledged() {
        let log = Self.good.map { $0.kind == .eventsFinished || $0.kind == .eventsAcknowledging ? Self.e($0.t, "log") : $0 }
        Self.expectBroken(log, [.downloadsAcknowledged])
        #expect(Self.check(log).violations.map(\.detail).contains { $0.contains("event 5") && $0.contains("never acknowledged") })
    }

    @Test("a body the server sent whole with no task that finished")
    func serverCompletedButNotFinished() {
        let log = Self.good.filter {
            $0.kind != .downloadFinished && $0.kind != .eventDelivered && $0.kind != .eventsFinished && $0.kind != .eventsAcknowledging
        }
        Self.expectBroken(log, [.downloadsAcknowledged])
        #expect(Self.check(log).violations[0].detail.contains("the server sent /bytes/10 whole"))
    }

    @Test("an event delivered after its acknowledgement, in the next host")
    func deliveryAfterAcknowledgement() {
        let log =
            Self.good + [
                Self.e(0, "run.start", ["pid": 200]),
                Self.e(1, "event.delivered", ["bundle": Self.bundle, "pid": 30, "session": "feed", "taskId": 1, "eventId": 5, "attempt": 2])
            ]
        Self.expectBroken(log, [.noDeliveryAfterAcknowledgement])
    }

    @Test("an acknowledgement committed just before the host died counts; one that was not is redelivered")
    func acknowledgementAcrossHostDeath() {
        // Host 0 dies between the journal's commit and events.finished: no redelivery follows.
        var log = Array(Self.good.prefix(14)) + [Self.e(14, "host.killed", ["step": "acknowledgementJournaled"])]
        log += [Self.e(0, "run.start", ["pid": 200]), Self.e(1, "run.end")]
        log += [Self.e(0, "host.ended", ["hostPid": 100, "killed": true, "survivors": []])]
        Self.expectBroken(log, [])
        // The commit did not happen: the events come again, and are acknowledged then.
        var again = Array(Self.good.prefix(14)) + [Self.e(0, "run.start", ["pid": 200])]
        again += [
            Self.e(
                1, "activation.start", ["bundle": Self.bundle, "pid": 31, "activation": 1, "kind": "backgroundEvents", "session": "feed"]),
            Self.e(2, "event.delivered", ["bundle": Self.bundle, "pid": 31, "session": "feed", "taskId": 1, "eventId": 5, "attempt": 2]),
            Self.e(3, "event.delivered", ["bundle": Self.bundle, "pid": 31, "session": "feed", "taskId": 1, "eventId": 6, "attempt": 2]),
            Self.e(4, "events.finished", ["bundle": Self.bundle, "pid": 31, "identifier": "feed", "eventIds": [5, 6]])
        ]
        Self.expectBroken(again, [])
        // …but redelivered and then never acknowledged is a violation.
        Self.expectBroken(Array(again.dropLast()), [.downloadsAcknowledged])
    }

    @Test("an activation that ends twice, or never in a host that shut down")
    func activationOutcomes() {
        var twice = Self.good
        twice.insert(
            Self.e(5.5, "activation.end", ["bundle": Self.bundle, "pid": 10, "activation": 1, "kind": "timeline", "outcome": "killed"]),
            at: 6)
        Self.expectBroken(twice, [.oneOutcomePerActivation])
        let never = Self.good.filter { !($0.kind == .activationEnd && $0.int("activation") == 1) }
        Self.expectBroken(never, [.oneOutcomePerActivation])
        // A host that died leaves activations open, and that is no violation.
        let died = never.filter { $0.kind != .runEnd && $0.kind != .hygiene }
        Self.expectBroken(died, [])
        var badOutcome = Self.good
        badOutcome[5] = Self.e(
            5, "activation.end", ["bundle": Self.bundle, "pid": 10, "activation": 1, "kind": "timeline", "outcome": "maybe"])
        Self.expectBroken(badOutcome, [.oneOutcomePerActivation])
    }

    @Test("a process not reaped at shutdown, and extensions that outlive their host")
    func orphans() {
        Self.expectBroken(Self.good.filter { !($0.kind == .exited && $0.int("pid") == 11) }, [.noOrphans])
        Self.expectBroken(Self.good + [Self.e(20, "host.ended", ["hostPid": 100, "killed": true, "survivors": [11]])], [.noOrphans])
        Self.expectBroken(
            Self.good.map {
                $0.kind == .hygiene
                    ? Self.e(18, "hygiene", ["hostPid": 100, "fdBaseline": 12, "fds": 12, "zombies": 0, "processesLeft": [11]]) : $0
            }, [.noOrphans])
    }

    @Test("zombies left by the host or the conductor")
    func zombies() {
        Self.expectBroken(
            Self.good.map { $0.kind == .hygiene ? Self.e(18, "hygiene", ["hostPid": 100, "fdBaseline": 12, "fds": 12, "zombies": 2]) : $0 },
            [.noZombies])
        Self.expectBroken(Self.good + [Self.e(20, "stress.hygiene", ["zombies": 1])], [.noZombies])
    }

    @Test("descriptors over the baseline after shutdown")
    func descriptors() {
        let log = Self.good.map {
            $0.kind == .hygiene
                ? Self.e(
                    18, "hygiene",
                    ["hostPid": 100, "fdBaseline": 12, "fds": 14, "zombies": 0, "leaked": ["fd 13 → socket:[1]", "fd 14 → /tmp/x"]]) : $0
        }
        Self.expectBroken(log, [.descriptorsReturn])
        #expect(Self.check(log).violations[0].detail.contains("fd 14 → /tmp/x"))
    }

    @Test("a widget charged more than its budget in 24 hours")
    func reloadBudget() {
        var log = Self.good
        for i in 0..<4 {
            log.insert(
                Self.e(
                    Double(i) * 1000, "reload.requested",
                    ["bundle": Self.bundle, "kind": "Feed", "family": "systemSmall", "charged": true, "limit": 3]), at: 3)
        }
        Self.expectBroken(log, [.reloadBudget])
        Self.expectBroken(Array(log.dropFirst(0).filter { !($0.kind == .reloadRequested && $0.t == 3000) }), [])
    }

    @Test("a conversation finished twice, an event acknowledged twice")
    func completions() {
        var twice = Self.good
        twice.insert(Self.e(14.5, "events.finished", ["bundle": Self.bundle, "pid": 11, "identifier": "feed", "eventIds": [6]]), at: 15)
        Self.expectBroken(twice, [.completionAtMostOnce])
    }

    @Test("a stalled chaos step")
    func stall() {
        Self.expectBroken(Self.good + [Self.e(20, "stress.stall", ["detail": "iteration 3 did not finish"])], [.progress])
    }

    @Test("pending at the end is allowed on request")
    func allowPending() {
        let log = Self.good.filter { $0.kind != .eventsFinished && $0.kind != .eventsAcknowledging }
        #expect(!InvariantChecker().check(log).held)
        #expect(InvariantChecker(allowPendingAtEnd: true).check(log).held)
    }
}

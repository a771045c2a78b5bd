import Foundation
import SandglassHost
import SandglassTesting
import Synchronization
import Testing

/// What one app's background sessions may keep in the host's journal: tasks whose events wait
/// count as much as live ones, and an app has a bounded number of sessions
/// (RogueSessions.app's Cycler creates and cancels tasks, and names 200 sessions).
@Suite("Background session bounds", .timeLimit(.minutes(2)))
struct SessionBoundsTests {
    static let cycler = "com.example.roguesessions.cycler"
    static let stasher = "com.example.roguesessions.stasher"
    static let scribe = "com.example.roguesessions.scribe"
    static let namer = "com.example.roguesessions.namer"
    static let shifter = "com.example.roguesessions.shifter"
    static let dropper = "com.example.roguesessions.dropper"
    static let poacher = "com.example.roguesessions.poacher"
    static let hoarder = "com.example.roguesessions.hoarder"

    @Test("the text a process's requests put in the log is charged to its log budget: past it their URLs are cut short")
    func requestTextInTheLog() async throws {
        try await withHost({
            $0.holdRoguesLong() // a new process would have a log budget of its own
            $0.extensionEnvironment["ROGUE_SCRIBE"] = "1"
        }) { host in
            try await host.install(Examples.app("RogueSessions.app"))
            await host.start()
            // The 250 tasks of one process (its log budget is its own).
            let counts = Mutex<[Int32: Int]>([:])
            let last = try await host.waitForEvent(timeout: .seconds(60)) { event in
                guard event.kind == .taskCreated, event.bundle == Self.scribe, let pid = event.pid else { return false }
                return counts.withLock {
                    $0[pid, default: 0] += 1
                    return $0[pid] == 250
                }
            }
            let created = await host.events().filter { $0.kind == .taskCreated && $0.pid == last.pid }
            let bytes = created.reduce(0) { $0 + $1.jsonLine.utf8.count }
            let limits = MessageLimits()
            #expect(
                bytes <= limits.logBytesPerMinute + created.count * 1024,
                "250 task.created events took \(bytes) bytes of log, past the \(limits.logBytesPerMinute >> 10) KiB a minute a process's log has"
            )
            #expect(created.last?.string("url")?.contains("cut") == true, "\(created.last?.string("url") ?? "")")
        }
    }

    @Test(
        "a session identifier of 512 KiB where no session is attached (finished, an event handled, a task refused) enters the log cut to 256 bytes; its invalidation is ignored"
    )
    func namesInTheLog() async throws {
        try await withHost({
            $0.holdRoguesLong()
            $0.extensionEnvironment["ROGUE_NAMER"] = "1"
        }) { host in
            try await host.install(Examples.app("RogueSessions.app"))
            await host.start()
            // The last of its frames: the 20th task refused.
            _ = try await host.waitForDistinct(20) { event in
                event.kind == .taskRefused && event.bundle == Self.namer ? "\(event.pid ?? 0) \(event.t)" : nil
            }
            let events = await host.events().filter { $0.bundle == Self.namer }
            // Its invalidations name no session it holds: ignored. The rest are recorded, cut.
            let names = Set(events.map(\.name))
            #expect(names.contains("events.finished.unexpected") && names.contains("task.refused"), "\(names)")
            #expect(!names.contains("session.invalidated"), "\(names)")
            for event in events {
                for case (let key, .string(let text)) in event.fields {
                    #expect(text.utf8.count <= 1024, "\(event.name).\(key): \(text.utf8.count) bytes")
                }
            }
            let bytes = events.reduce(0) { $0 + $1.jsonLine.utf8.count }
            #expect(bytes <= events.count * 2048, "\(events.count) events took \(bytes) bytes of log")
        }
    }

    @Test(
        "the events a process's ignored and refused calls cause (completion handlers with no delivery, tasks refused) count toward its log budget: past it they are left out and counted"
    )
    func refusalsInTheLog() async throws {
        try await withHost({
            $0.holdRoguesLong()
            $0.extensionEnvironment["ROGUE_NAMER"] = "flood"
        }) { host in
            try await host.install(Examples.app("RogueSessions.app"))
            await host.start()
            let exited = try await host.waitFor("exited", timeout: .seconds(60)) { $0.bundle == Self.namer }
            let events = await host.events().filter { $0.bundle == Self.namer && $0.pid == exited.pid }
            let told = events.filter { $0.kind == .eventsFinishedUnexpected || $0.kind == .taskRefused }
            let bytes = told.reduce(0) { $0 + $1.jsonLine.utf8.count }
            let limits = MessageLimits()
            #expect(!told.isEmpty)
            #expect(
                bytes <= limits.logBytesPerMinute,
                "\(told.count) events of 900 calls took \(bytes) bytes of log, past the \(limits.logBytesPerMinute >> 10) KiB a minute a process's log has"
            )
            let throttled = try await host.waitFor("messages.throttled", timeout: .seconds(30)) { $0.pid == exited.pid }
            #expect((throttled.int("messages") ?? 0) > 0, "\(throttled)")
        }
    }

    @Test(
        "reloadAllTimelines for 128 widgets whose kinds are control characters: the events it causes count toward its log budget, the rest left out and counted; its hello event names them up to 64 KiB"
    )
    func reloadFanOut() async throws {
        let fanout = "com.example.roguesessions.fanout"
        try await withHost({
            $0.holdRoguesLong()
            $0.extensionEnvironment["ROGUE_FANOUT"] = "1"
        }) { host in
            try await host.install(Examples.app("RogueSessions.app"))
            await host.start()
            _ = try await host.waitFor("log", timeout: .seconds(60)) { $0.bundle == fanout && $0.string("message") == "fanned out" }
            let events = await host.events().filter { $0.bundle == fanout }
            // Its hello names its kinds as written up to 64 KiB, the rest counted.
            let hello = events.first { $0.kind == .hello }
            let helloBytes = hello?.jsonLine.utf8.count ?? 0
            #expect(helloBytes > 0 && helloBytes <= 80 << 10, "a hello event of \(helloBytes) bytes")
            #expect((hello?.int("kindsLeftOut") ?? 0) > 0)
            let reloads = events.filter { $0.name.hasPrefix("reload.") }
            #expect(reloads.count > 0)
            let written = reloads.reduce(0) { $0 + $1.jsonLine.utf8.count }
            let limits = MessageLimits()
            #expect(written <= limits.logBytesPerMinute + (64 << 10), "\(reloads.count) reload events took \(written) bytes of log")
        }
    }

    @Test(
        "an extension that declares new kinds in every launch: the host keeps at most 128 widgets of it across launches, the rest capped"
    )
    func kindsAcrossLaunches() async throws {
        try await withHost({ $0.extensionEnvironment["ROGUE_SHIFTER"] = "1" }) { host in
            try await host.install(Examples.app("RogueSessions.app"))
            await host.start()
            _ = try await host.waitForDistinct(4) { $0.kind == .hello && $0.bundle == Self.shifter ? "\($0.pid ?? 0)" : nil }
            let events = await host.events().filter { $0.bundle == Self.shifter }
            let added = events.filter { $0.kind == .widgetAdded }.count
            #expect(added <= 128, "\(added) widgets added over \(events.filter { $0.kind == .hello }.count) launches")
            #expect(events.contains { $0.kind == .limitsCapped && $0.string("key") == "widgetKinds" })
        }
    }

    @Test(
        "the bodies the host holds go with their tasks: a background data task's (no event carries it), and a download's when its session is invalidated with its tasks cancelled before its events are taken"
    )
    func bodiesGo() async throws {
        let server = try await FixtureServer.start()
        defer { Task { await server.stop() } }
        var data = ""
        try await withHost({
            data = $0.dataDirectory
            $0.budgetOverrides.idle = .seconds(120)
            $0.extensionEnvironment["ROGUE_DROPPER"] = server.url("/bytes/200000")
            // The Cycler's 200 sessions must not take the app's last one before the Dropper's
            // (a launch late under load): this test is about bodies, not the app's bound.
            $0.messageLimits.sessionsPerApp = 1000
        }) { host in
            try await host.install(Examples.app("RogueSessions.app"))
            await host.start()
            let invalidated = try await host.waitFor("session.invalidated", timeout: .seconds(60)) { $0.bundle == Self.dropper }
            #expect(invalidated.string("by") == "extension", "\(invalidated)")
            // Its two tasks ended before the session went (under load a process of it may be
            // relaunched and create two more, which the invalidation then cancels).
            let finished = await host.events().filter { $0.bundle == Self.dropper && $0.kind == .downloadFinished && $0.t <= invalidated.t }
            #expect(finished.count >= 2, "\(finished.count) tasks ended before the session went")
            let held = try FileManager.default.contentsOfDirectory(atPath: data + "/Transfers").filter { $0.hasPrefix("task-") }
            #expect(held.isEmpty, "the host still holds \(held)")
        }
    }

    @Test("a session is its holder's: another process of the app lists none of its running tasks, and cannot cancel them")
    func holderOnlyTasks() async throws {
        let server = try await FixtureServer.start()
        defer { Task { await server.stop() } }
        try await withHost({
            $0.budgetOverrides.idle = .seconds(120)
            $0.extensionEnvironment["ROGUE_DROPPER"] = server.url("/bytes/100000?gate=never")
            $0.messageLimits.sessionsPerApp = 1000 // the Dropper's session is never the app's 65th
            $0.extensionEnvironment["ROGUE_POACHER"] = "drop"
        }) { host in
            try await host.install(Examples.app("RogueSessions.app"))
            await host.start()
            // The dropper's two tasks on the wire, held by the server.
            let started = try await host.waitForDistinct(2) {
                $0.kind == .downloadStarted && $0.bundle == Self.dropper ? "\($0.int("taskId") ?? 0)" : nil
            }
            _ = try await host.waitFor("log", timeout: .seconds(60)) {
                $0.bundle == Self.poacher && $0.string("message") == "invalidated drop"
            }
            let events = await host.events()
            let listed = events.filter { $0.kind == .log && $0.bundle == Self.poacher && $0.t > started.t }
                .compactMap { $0.string("message") }.filter { $0.hasPrefix("listed") }
            #expect(!listed.isEmpty && listed.allSatisfy { $0 == "listed 0 tasks of drop" }, "\(listed)")
            let cancelled = events.filter { $0.kind == .taskCancelled && $0.bundle == Self.dropper }
            #expect(cancelled.isEmpty, "the poacher cancelled the dropper's tasks: \(cancelled.map(\.jsonLine))")
        }
    }

    @Test(
        "a backlog of 1,202 events of 16 KiB each (601 downloads), past the 8 MiB the host queues for a process, is delivered in batches the process takes: it is never killed for it, and every event is acknowledged"
    )
    func backlogInBatches() async throws {
        let server = try await FixtureServer.start()
        defer { Task { await server.stop() } }
        try await withHost({
            $0.holdRoguesLong()
            $0.extensionEnvironment["ROGUE_HOARDER"] = server.url("/bytes/10?etag=16000&gate=hoard")
            $0.extensionEnvironment["ROGUE_HOARDER_LAST"] = server.url("/bytes/10?etag=16000")
            $0.messageLimits.sessionsPerApp = 1000 // the Cycler's 200 sessions must not take the Hoarder's
            $0.budgetOverrides.launch = .seconds(10) // a first launch late under the suite's load is not this test's
        }) { host in
            try await host.install(Examples.app("RogueSessions.app"))
            await host.start()
            _ = try await host.waitFor("log", timeout: .seconds(60)) { $0.bundle == Self.hoarder && $0.string("message") == "hoarded 600" }
            server.open(gate: "hoard")
            let acknowledged = Mutex(0)
            _ = try await host.waitForEvent(timeout: .seconds(90)) { event in
                guard event.kind == .eventsFinished, event.bundle == Self.hoarder else { return false }
                return acknowledged.withLock {
                    $0 += Int(event.int("acknowledged") ?? 0)
                    return $0 >= 1202
                }
            }
            let events = await host.events().filter { $0.bundle == Self.hoarder }
            let killed = events.filter { $0.kind == .killed }
            #expect(killed.isEmpty, "\(killed.map(\.jsonLine))")
            // All 1,202 waited for the one delivery, which took more than one batch.
            let released = events.first { $0.kind == .log && $0.string("message") == "released" }
            let batches = events.filter { $0.kind == .eventsFinished && $0.t > (released?.t ?? .infinity) }
            #expect(batches.count >= 2, "\(batches.map { $0.int("acknowledged") ?? 0 })")
        }
    }

    /// Runs `check` once the Poacher (ROGUE_POACHER=`mode`) has listed the Cycler's session —
    /// full of cancelled tasks whose events wait — and tried to invalidate it.
    private func afterPoaching(_ mode: String, _ check: (ExtensionHost) async throws -> Void) async throws {
        try await withHost({
            $0.budgetOverrides.idle = .seconds(120)
            $0.extensionEnvironment["ROGUE_POACHER"] = mode
        }) { host in
            try await host.install(Examples.app("RogueSessions.app"))
            await host.start()
            _ = try await host.waitFor("task.refused", timeout: .seconds(60)) { $0.bundle == Self.cycler }
            _ = try await host.waitFor("log", timeout: .seconds(60)) {
                $0.bundle == Self.poacher && $0.string("message") == "invalidated cycle"
            }
            try await check(host)
        }
    }

    @Test("a session is its holder's: another process of the app cannot invalidate it or drop its events")
    func holderOnly() async throws {
        try await afterPoaching("1") { host in
            // Its invalidation came after the cycler's tasks: the cycler's events are still there.
            let invalidated = await host.events().contains { $0.kind == .sessionInvalidated && $0.bundle == Self.poacher }
            #expect(!invalidated, "the poacher's invalidation was taken")
            #expect(await host.unacknowledgedEvents() > 0, "the cycler's events were dropped")
        }
    }

    @Test(
        "a session identifier with a NUL in it is refused: \"cycle\\0poached\" is not another name for the cycler's \"cycle\", whose tasks and events stay its own"
    )
    func nulInIdentifier() async throws {
        try await afterPoaching("nul") { host in
            let events = await host.events()
            let refused = events.first { $0.kind == .sessionInvalidated && $0.bundle == Self.poacher }
            #expect(refused?.string("reason") == "badIdentifier", "\(String(describing: refused))")
            let listed = events.filter { $0.kind == .log && $0.bundle == Self.poacher && ($0.string("message") ?? "").hasPrefix("listed ") }
            #expect(listed.allSatisfy { $0.string("message") == "listed 0 tasks of cycle" }, "\(listed.map { $0.string("message") ?? "" })")
            #expect(await host.unacknowledgedEvents() > 0, "the cycler's events were dropped")
        }
    }

    @Test("inline requests not ended hold at most 4 MiB of a process's requests in the host; past it a createTask is refused")
    func inlineBytes() async throws {
        try await withHost({ $0.budgetOverrides.idle = .seconds(60) }) { host in
            try await host.install(Examples.app("RogueSessions.app"))
            await host.start()
            let refused = try await host.waitFor("task.refused", timeout: .seconds(60)) { $0.bundle == Self.stasher }
            #expect(refused.string("detail")?.contains("inline tasks not ended") == true, "\(refused)")
            let created = await host.events().filter { $0.kind == .taskCreated && $0.bundle == Self.stasher && $0.pid == refused.pid }
            #expect(created.count * (512 << 10) <= MessageLimits().inlineTaskBytes, "\(created.count) inline tasks of 512 KiB kept")
        }
    }

    @Test("cancelled tasks whose events wait count toward the session's limit; past 64 sessions an app's next is invalidated")
    func bounded() async throws {
        try await withHost({ $0.budgetOverrides.idle = .seconds(60) }) { host in
            try await host.install(Examples.app("RogueSessions.app"))
            await host.start()
            let refused = try await host.waitFor("task.refused", timeout: .seconds(60)) { $0.bundle == Self.cycler }
            #expect(refused.string("detail")?.contains("events not yet taken") == true, "\(refused)")
            let invalidated = try await host.waitFor("session.invalidated", timeout: .seconds(60)) {
                $0.bundle == Self.cycler && $0.string("reason") == "tooManySessions"
            }
            #expect(invalidated.string("session")?.hasPrefix("many-") == true)
            let events = await host.events()
            let created = events.filter { $0.kind == .taskCreated && $0.bundle == Self.cycler }.count
            let limits = MessageLimits()
            #expect(created * (64 << 10) <= limits.sessionTaskBytes, "\(created) cancelled tasks of 64 KiB kept")
            let sessions = Set(
                events.filter { $0.kind == .sessionAttached && $0.bundle == Self.cycler }.compactMap { $0.string("session") })
            #expect(sessions.count <= 64, "\(sessions.count) sessions")
        }
    }
}

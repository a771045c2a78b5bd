import Foundation
import SandglassHost
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

    @Test("the text a process's requests put in the log is charged to its log budget: past it their URLs are cut short")
    func requestTextInTheLog() async throws {
        try await withHost({
            $0.budgetOverrides.idle = .seconds(60)
            $0.extensionEnvironment["ROGUE_SCRIBE"] = "1"
        }) { host in
            try await host.install(Examples.app("RogueSessions.app"))
            await host.start()
            let count = Mutex(0)
            _ = try await host.waitForEvent(timeout: .seconds(60)) { event in
                guard event.kind == .taskCreated, event.bundle == Self.scribe else { return false }
                return count.withLock {
                    $0 += 1
                    return $0 == 250
                }
            }
            let created = await host.events().filter { $0.kind == .taskCreated && $0.bundle == Self.scribe }
            let bytes = created.reduce(0) { $0 + $1.jsonLine.utf8.count }
            let limits = MessageLimits()
            #expect(
                bytes <= limits.logBytesPerMinute + created.count * 1024,
                "250 task.created events took \(bytes) bytes of log, past the \(limits.logBytesPerMinute >> 10) KiB a minute a process's log has"
            )
            #expect(created.last?.string("url")?.contains("cut") == true, "\(created.last?.string("url") ?? "")")
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

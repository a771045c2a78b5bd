import Foundation
import SandglassHost
import SandglassIPC
import Testing

/// What an extension's location requests may put in the event log (RogueSessions.app's Locator).
@Suite("Location request bounds", .timeLimit(.minutes(2)))
struct LocationBoundsTests {
    static let locator = "com.example.roguesessions.locator"

    @Test(
        "location requests as fast as the request budget allows: their events stay within the process's log budget of a minute, the rest counted"
    )
    func requestsInTheLog() async throws {
        try await withHost({
            $0.holdRoguesLong()
            $0.extensionEnvironment["ROGUE_LOCATOR"] = "1"
        }) { host in
            try await host.install(Examples.app("RogueSessions.app"))
            await host.start()
            // It exits when it has sent them all.
            let done = try await host.waitFor("exited", timeout: .seconds(60)) { $0.bundle == Self.locator }
            let events = await host.events().filter { $0.bundle == Self.locator && $0.pid == done.pid }
            Self.check(events)
        }
    }

    /// The locator's process was not killed, and its location events fit its log budget.
    private static func check(_ events: [HostEvent]) {
        #expect(!events.contains { $0.kind == .killed }, "the locator was killed: the test proves nothing")
        let located = events.filter { $0.kind == .locationUnavailable || $0.kind == .locationDelivered }
        let bytes = located.reduce(0) { $0 + $1.jsonLine.utf8.count }
        let perMinute = MessageLimits().logBytesPerMinute
        let minutes = Int(((located.last?.t ?? 0) - (located.first?.t ?? 0)) / 60_000) + 1
        #expect(
            bytes <= perMinute * minutes,
            "\(located.count) location events took \(bytes) bytes of log, past the \(perMinute >> 10) KiB a minute a process's log has")
        #expect(events.contains { $0.kind == .messagesThrottled }, "what was left out was counted")
    }
}

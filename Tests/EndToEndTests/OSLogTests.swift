import Foundation
import SandglassHost
import Testing

/// `Logger` and `os_log` in a real extension (Relay.app) or embedded: each message is a `log` event with
/// the logger's subsystem and category and the message's level; private values are redacted
/// unless the run reveals them, sensitive ones always.
@Suite("Logger and os_log", .serialized)
struct OSLogTests {
    static let relay = "com.example.relay.widget"

    private func oslog(_ host: ExtensionHost, category: String, level: String) async throws -> HostEvent {
        try await host.waitFor("log", timeout: .seconds(60)) {
            $0.bundle == Self.relay && $0.string("stream") == "oslog" && $0.string("category") == category && $0.string("level") == level
        }
    }

    @Test(
        "Logger and os_log messages are log events with subsystem, category and level; private values are <private>",
        arguments: Backend.tested)
    func redacted(_ backend: Backend) async throws {
        try await withHost(on: backend, apps: [.relay]) { host in
            try host.appGroup("group.com.example.relay").defaults.set("J4X-22", forKey: "teamCode")
            await host.start()
            let info = try await oslog(host, category: "timeline", level: "info")
            #expect(info.string("subsystem") == "com.example.relay.widget")
            #expect(info.string("message") == "relay data for systemSmall: no relay data yet")
            let debug = try await oslog(host, category: "timeline", level: "debug")
            #expect(debug.string("message") == "roster: <private>")
            let notice = try await oslog(host, category: "timeline", level: "notice")
            #expect(notice.string("message") == "reads so far:   001", "a number is public; minDigits and right alignment apply")
            // os_log with a format string: %{public}@ shown, %d public by default.
            let legs = try await oslog(host, category: "legs", level: "info")
            #expect(legs.string("message") == "timeline for runner none, leg 0")
            let team = await host.events().first { $0.string("message")?.hasPrefix("team code") == true }
            let text = try #require(team?.string("message"))
            #expect(!text.contains("J4X-22"))
            #expect(text.hasPrefix("team code <private>, team <mask.hash: '"))
        }
    }

    @Test("revealed as Xcode reveals them (--log-private): private values show, sensitive ones stay redacted", arguments: Backend.tested)
    func revealed(_ backend: Backend) async throws {
        try await withHost(on: backend, apps: [.relay], { $0.revealsPrivateLogValues = true }) { host in
            try host.appGroup("group.com.example.relay").defaults.set("J4X-22", forKey: "teamCode")
            await host.start()
            let debug = try await host.waitFor("log", timeout: .seconds(60)) {
                $0.bundle == Self.relay && $0.string("message")?.hasPrefix("roster:") == true
            }
            #expect(debug.string("message") == "roster: none")
            let team = try await host.waitFor("log", timeout: .seconds(60)) {
                $0.bundle == Self.relay && $0.string("message")?.hasPrefix("team code") == true
            }
            #expect(team.string("message") == "team code <private>, team J4X-22")
        }
    }
}

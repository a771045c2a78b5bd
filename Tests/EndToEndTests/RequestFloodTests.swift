import Foundation
import SandglassHost
import SandglassTesting
import Testing

/// What the host puts on the wire for an extension at once: RogueDownloads.app's Flood asks for
/// 150 background downloads and 100 inline requests at once, from a server that holds them.
@Suite("Request floods", .timeLimit(.minutes(2)))
struct RequestFloodTests {
    static let flood = "com.example.roguedownloads.flood"
    static let downloader = "com.example.downloader.widget"

    @Test(
        "a flood of requests the server holds: a few of the extension's on the wire at once, the rest wait their turn; another app's download goes through meanwhile; then the flood completes"
    )
    func floodWaitsItsTurn() async throws {
        let server = try await FixtureServer.start()
        defer { Task { await server.stop() } }
        try await withHost({
            $0.extensionEnvironment["ROGUE_HELD_URL"] = server.url("/bytes/10?gate=held")
            $0.extensionEnvironment["SANDGLASS_FIXTURE_URL"] = server.url("/bytes/4096")
            // The flood answers no activation: budgets long enough that no kill and relaunch (a
            // new process, whose inline requests are another owner) comes within the test.
            $0.holdRoguesLong()
        }) { host in
            try await host.install(Examples.app("RogueDownloads.app"))
            try await host.install(Examples.app("Downloader.app"))
            await host.start()
            // Every request of the flood asked for: its background attempts and inline requests started.
            _ = try await host.waitForDistinct(250) { event in
                guard event.bundle == Self.flood, event.kind == .downloadStarted || event.kind == .taskStarted else { return nil }
                return "\(event.kind == .downloadStarted ? "background" : "inline") \(event.int("taskId") ?? -1)"
            }
            // Another app's background download is not held behind them.
            _ = try await host.waitForEvent(timeout: .seconds(60)) { event in
                event.kind == .downloadFinished && event.bundle == Self.downloader
            }
            let concurrency = ConcurrentTransfers()
            let onTheWire = server.requestCount("/bytes/10?gate=held")
            // Its background downloads are one owner; each of its processes' inline requests another.
            let processes = await host.events().filter { $0.kind == .spawned && $0.bundle == Self.flood }.count
            #expect(processes >= 1)
            #expect(
                onTheWire <= concurrency.perOwner * (1 + processes),
                "\(onTheWire) of the flood's requests on the wire, from \(processes) processes")
            server.open(gate: "held")
            _ = try await host.waitForDistinct(150) { event in
                event.kind == .downloadFinished && event.bundle == Self.flood ? "\(event.int("taskId") ?? -1)" : nil
            }
            #expect(server.requestCount("/bytes/10?gate=held&task=") == 150)
        }
    }
}

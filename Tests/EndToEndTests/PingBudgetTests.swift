import Foundation
@_spi(Measurements) import SandglassHost
import Testing

/// The message budget protects the host from what an extension sends unasked; a `pong` is what
/// the host asked for. Thousands of pings in a row (`sandglass bench`'s IPC figure sends 50,000)
/// must not count as a flood: they once got the benchmark's extension killed (`resource`) and
/// then held in a crash-loop backoff, which looked like a stalled benchmark.
@Suite("Ping budget")
struct PingBudgetTests {
    @Test("3,000 pings in a row, past the request burst and rate: every pong answers, nothing is killed", arguments: Backend.tested)
    func pingsAreNotAFlood(_ backend: Backend) async throws {
        try await withHost(
            on: backend, apps: [.leaderboard],
            {
                $0.schedulesWidgets = false
                // Pings are not activations: on a loaded machine 3,000 of them may outlast the idle
                // budget (5 s), whose kill is not what this test is about.
                $0.budgetOverrides.idle = .seconds(600)
            }
        ) { host in
            let bundle = "com.example.leaderboard.widget"
            let samples = await host.measurePings(bundle, count: 3_000)
            #expect(samples.count == 3_000)
            let kills = await host.events().filter { $0.kind == .killed }
            #expect(kills.isEmpty, "\(kills.map { $0.string("detail") ?? "" })")
        }
    }
}

import Foundation
import SandglassHost
import SandglassIPC
import Testing

/// The extension's own `Date()` follows the virtual clock: unmodified provider code, a preloaded
/// shim and a page the host updates on every jump.
///
/// Three virtual days relaunch the Leaderboard about 450 times, and each relaunch renders its
/// six entries' views in a cold process: under the whole suite's load that is over a minute.
@Suite("Virtual time in the extension", .timeLimit(.minutes(2)))
struct VirtualTimeTests {
    /// The first entry date (seconds since 1970) of the next Leaderboard timeline after `after` (ms).
    private func nextLeaderboardEntry(_ host: ExtensionHost, after t: Double) async throws -> (date: Double, event: HostEvent) {
        let timeline = try #require(
            await host.advance(by: .seconds(3600)) {
                $0.kind == .timeline && $0.string("kind") == "Leaderboard" && $0.t > t
            })
        guard case .array(let entries)? = timeline["entries"]?.resolved, case .object(let first)? = entries.first,
            let date = first.first(where: { $0.0 == "date" })?.1.stringValue
        else {
            throw Failure("no entry date in \(timeline)")
        }
        return (try Date(date, strategy: .iso8601).timeIntervalSince1970, timeline)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test(
        "the virtual clock advanced past 100 years — in steps of a century, or at once by the longest duration — stops there, never a trap")
    func advanceNoFurther() async throws {
        try await withHost({ $0.clock = .virtual }) { host in
            await host.start()
            let started = await host.now().timeIntervalSince1970
            for _ in 0..<3 { await host.advance(by: .seconds(36_500 * 86_400)) } // `sandglass ctl clock 36500d`, three times
            await host.advance(by: .seconds(Int64.max))
            let later = await host.now().timeIntervalSince1970 - started
            #expect(later >= 99 * 365 * 86_400 && later <= 101 * 365 * 86_400, "\(later / 86_400 / 365) years later")
        }
    }

    @Test("three virtual days later, an unmodified provider's Date() is three days ahead")
    func providerSeesVirtualTime() async throws {
        let started = Date().timeIntervalSince1970 // the run clock starts at the wall clock's now
        try await withHost({
            $0.clock = .virtual; $0.budgetOverrides.idle = .seconds(30)
        }) { host in
            try await host.install(Examples.app("Leaderboard.app"))
            await host.start()
            await host.advance(by: .seconds(3 * 86_400))
            await host.performAppIntent(widget: "Leaderboard")
            let (date, _) = try await nextLeaderboardEntry(host, after: 3 * 86_400_000 - 1)
            let hostNow = await host.now().timeIntervalSince1970
            #expect(abs(date - hostNow) < 5, "the entry is dated at the run clock's now")
            // Three days ahead of the wall clock at the start (less the seconds of real time the
            // run took, which a loaded machine stretches past a minute).
            #expect(date - started > 3 * 86_400 - 5, "three days ahead of the wall clock")
        }
    }

    @Test("without the shim the same provider sees the wall clock (the check above can fail)")
    func withoutShim() async throws {
        try await withHost({
            $0.clock = .virtual; $0.extensionsFollowVirtualClock = false
        }) { host in
            try await host.install(Examples.app("Leaderboard.app"))
            await host.start()
            await host.advance(by: .seconds(86_400))
            await host.performAppIntent(widget: "Leaderboard")
            let (date, _) = try await nextLeaderboardEntry(host, after: 86_400_000 - 1)
            #expect(abs(date - Date().timeIntervalSince1970) < 60)
        }
    }

    @Test("the run's log records that extensions follow the virtual clock")
    func recorded() async throws {
        try await withHost({ $0.clock = .virtual }) { host in
            let start = try #require(await host.events().first)
            #expect(start.name == "run.start")
            #expect(start.string("extensionClock")?.hasPrefix("virtual") == true)
        }
    }
}

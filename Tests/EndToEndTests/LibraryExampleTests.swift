import Foundation
import SandglassEmbedded
import SandglassHost
import SandglassIPC
import Testing
import XCTest

// The examples of "The host as a library" (SandglassHost.docc/HostAsLibrary.md), run against the example apps: Leaderboard.app
// stands for the reader's MyApp.app (its "Leaderboard" kind for "Scores"), Hanging.app for a
// provider that never completes. Each runs on both backends: the two lines that choose the
// backend (the launcher, the bundle) are all that differs from the documentation.

@Test(
    "The host as a library: a widget stays within its budget over a virtual day; free reloads while the app is in the foreground; explain",
    arguments: Backend.tested)
func readmeSwiftTestingExample(_ backend: Backend) async throws {
    let bundles = try BackendBundles(backend, [.leaderboard])
    defer { bundles.remove() }
    var configuration = HostConfiguration.temporary()
    configuration.launcher = await backend.launcher(for: [.leaderboard])
    configuration.clock = .virtual // days in seconds; the widget's Date() follows
    configuration.budgetOverrides.reloadsPerDay = 40
    let host = try await ExtensionHost(configuration)
    defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }
    try await host.install(bundles.path(.leaderboard))
    await host.start()

    // The first timeline (already recorded, or coming), then a virtual day of reloads.
    let first = try await host.waitForEvent(named: "timeline") { $0.string("kind") == "Leaderboard" }
    #expect(first.string("policy") == "atEnd")
    await host.advance(by: .seconds(86_400))

    // The ledger: never more than 40 charged reloads in any 24 hours.
    let charged = await host.ledger(widget: "Leaderboard").filter { $0.decision == .charged }
    #expect(charged.count <= 40)
    #expect(ReloadAudit.budgetViolations(in: await host.events()).isEmpty)

    // With the app in the foreground its WidgetCenter reloads are free.
    await host.setAppForeground(true)
    await host.reloadTimelines(ofKind: "Leaderboard")
    let free = await host.advance(by: .seconds(60)) {
        $0.kind == .reloadRequested && $0.string("exempt") == "appForeground"
    }
    #expect(free != nil)
    await host.setAppForeground(false)

    // Why did it (not) reload?
    let explanation = try #require(await host.explain("Leaderboard").first)
    #expect(!explanation.history.isEmpty)
    #expect(explanation.statusText.isEmpty == false)
    await host.shutdown()
}

final class ReadmeXCTestExample: XCTestCase {
    /// The host as a library: a provider that never completes is killed, backs off and fails permanently.
    func testHangingProviderFailsPermanently() async throws {
        try await hangingProviderFailsPermanently(on: .linux)
    }

    /// The same on the embedded backend.
    func testHangingProviderFailsPermanentlyEmbedded() async throws {
        try XCTSkipUnless(Backend.tested.contains(.embedded), "SANDGLASS_TEST_BACKENDS=linux")
        try await hangingProviderFailsPermanently(on: .embedded)
    }

    private func hangingProviderFailsPermanently(on backend: Backend) async throws {
        let bundles = try BackendBundles(backend, [.hanging])
        defer { bundles.remove() }
        var configuration = HostConfiguration.temporary()
        configuration.launcher = await backend.launcher(for: [.hanging])
        configuration.clock = .virtual
        configuration.budgetOverrides.timeline = .milliseconds(200)
        configuration.relaunchBackoff.permanentFailureCount = 3
        let host = try await ExtensionHost(configuration)
        defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }
        try await host.install(bundles.path(.hanging))
        await host.start()

        let failed = await host.advance(by: .seconds(3600)) { $0.kind == .extensionFailedPermanently }
        XCTAssertEqual(failed?.int("failures"), 3)
        let explanation = await host.explain("Hanging").first
        XCTAssertEqual(explanation?.status, .failedPermanently(since: failed?.t ?? -1))
        await host.shutdown()
    }
}

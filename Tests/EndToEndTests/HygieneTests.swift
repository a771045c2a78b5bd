import Foundation
import SandglassHost
import Testing

/// After many launches the host keeps no zombie and no descriptor. Runs in its own process (an
/// exit test), so that other tests' processes and descriptors do not count.
@Suite("Hygiene")
struct HygieneTests {
    @Test("after 100 launches and kills: no zombie, no leaked fd, every process gone")
    func hundredLaunches() async throws {
        // The child finds the app as this process does (SANDGLASS_EXAMPLES): a setenv here
        // would race with other tests' Process.run(), which copies the environment.
        _ = try Examples.app("Leaderboard.app")
        await #expect(processExitsWith: .success) {
            let app = try Examples.app("Leaderboard.app")
            let bundle = "com.example.leaderboard.widget"
            var configuration = HostConfiguration.temporary()
            configuration.schedulesWidgets = false
            let host = try await ExtensionHost(configuration)
            try await host.install(app)
            // Warm up once, so that per-extension state (cgroup, Landlock ruleset) exists.
            _ = await host.activate(bundle, .placeholder, widget: "Leaderboard")
            await host.kill(bundle)
            _ = try await host.waitForEvent(timeout: .seconds(10)) { $0.kind == .exited }
            let baseline = openFileDescriptorCount()
            for _ in 0..<100 {
                guard case .entry = await host.activate(bundle, .placeholder, widget: "Leaderboard") else { exit(10) }
                await host.kill(bundle)
            }
            let summary = await host.shutdown()
            guard summary.spawns == 101 else { exit(11) }
            let pids = await host.events().filter { $0.kind == .spawned }.compactMap(\.pid)
            guard pids.count == 101, pids.allSatisfy({ !processExists($0) }) else { exit(12) }
            guard zombieChildren().isEmpty else { exit(13) }
            guard openFileDescriptorCount() <= baseline else { exit(14) }
            try? FileManager.default.removeItem(atPath: configuration.dataDirectory)
            exit(0)
        }
    }
}

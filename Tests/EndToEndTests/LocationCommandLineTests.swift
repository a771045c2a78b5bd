import Foundation
import Testing

/// `sandglass run`'s location, visibility and scenario options.
@Suite("Command line: location and scenarios")
struct LocationCommandLineTests {
    private func temporary(_ name: String, _ text: String) throws -> (String, () -> Void) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (path, { try? FileManager.default.removeItem(at: dir) })
    }

    @Test("run --help documents the location options and --scenario")
    func help() async throws {
        let result = try await CommandLineTests.run(["run", "--help"])
        #expect(result.status == 0)
        let text = result.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for option in [
            "--location-auth", "--widget-location", "--position", "--route", "--visibility", "--in-use-window", "--scenario",
            "notDetermined, denied, restricted, whenInUse, always", "extended, declined", "always, never, often, seldom"
        ] {
            #expect(text.contains(option), "\(option) in run --help")
        }
    }

    @Test("a shipped scenario runs days on the virtual clock, meets its expectations and exits 0")
    func scenarioMet() async throws {
        let scenario = ScenarioTests.directory + "/multiple-extensions.json"
        let result = try await CommandLineTests.run([
            "run", try Examples.app("Commute.app"), "--scenario", scenario, "--budget", "idle=6h", "--quiet"
        ])
        #expect(result.status == 0, "\(result.output)\n\(result.error)")
        #expect(result.output.contains("scenario: all 6 expectations met"), "\(result.output)")
        #expect(result.output.contains("locations:"), "the summary counts locations")
    }

    @Test("an unmet expectation exits 1 and says which; the command line's options override the scenario's start")
    func scenarioUnmet() async throws {
        let (path, cleanUp) = try temporary(
            "strict.json",
            #"{"duration": "10m", "clock": "virtual", "authorization": "denied", "expect": [{"event": "location.delivered", "atMost": 0}]}"#
        )
        defer { cleanUp() }
        let result = try await CommandLineTests.run([
            "run", try Examples.app("Nearby.app"), "--scenario", path, "--location-auth", "always", "--quiet"
        ])
        #expect(result.status == 1, "\(result.output)\n\(result.error)")
        #expect(result.output.contains("✗ at most 0 location.delivered: saw"), "\(result.output)")
    }

    @Test("bad location input is bad input: exit 2, with the file and key, or the option, named")
    func badInput() async throws {
        let (path, cleanUp) = try temporary("bad.json", #"{"autorization": "always"}"#)
        defer { cleanUp() }
        let scenario = try await CommandLineTests.run(["run", try Examples.app("Nearby.app"), "--scenario", path])
        #expect(scenario.status == 2)
        #expect(scenario.error.contains("bad.json: autorization is not a scenario key here"), "\(scenario.error)")
        let position = try await CommandLineTests.run(["run", "X.app", "--position", "91,0"])
        #expect(position.status == 2)
        #expect(position.error.contains("position"))
        let route = try await CommandLineTests.run(["run", try Examples.app("Nearby.app"), "--route", "/nonexistent/r.gpx"])
        #expect(route.status == 2)
        #expect(route.error.contains("--route: /nonexistent/r.gpx: cannot be read"), "\(route.error)")
    }
}
